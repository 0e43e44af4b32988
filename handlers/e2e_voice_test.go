//go:build e2e

package handlers_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// voiceBrowser starts a Chromium whose microphone is a fake device (a
// beeping tone) that it may use without asking, and which records every
// RTCPeerConnection the page makes in window.__pcs, so that the test can
// read their statistics (the product's pages have no such hook), and
// whose Content-Security-Policy violations are recorded (watchCSP).
func voiceBrowser(t *testing.T, name string) *browser {
	t.Helper()
	b := newBrowser(t, name,
		chromedp.Flag("use-fake-device-for-media-stream", true),
		chromedp.Flag("use-fake-ui-for-media-stream", true),
		// Without a network interface, only loopback connects the two.
		chromedp.Flag("allow-loopback-in-peer-connection", true),
	)
	const hook = `(function () {
		var Native = window.RTCPeerConnection;
		if (!Native) return;
		window.__pcs = [];
		window.RTCPeerConnection = function (cfg) {
			var pc = new Native(cfg);
			window.__pcs.push(pc);
			return pc;
		};
		window.RTCPeerConnection.prototype = Native.prototype;
	})();`
	b.do(10*time.Second, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: hook})
		return err
	}))
	watchCSP(b)
	return b
}

// setVIP runs `satranc admin vip NAME on|off` on the server's database, as
// an administrator would while the server runs.
func setVIP(t *testing.T, srv *server, name, onOff string) {
	t.Helper()
	out, err := exec.Command(satrancBinary(t), "admin", "--db", srv.DB, "vip", name, onOff).CombinedOutput()
	if err != nil {
		t.Fatalf("satranc admin vip %s %s: %v\n%s", name, onOff, err, out)
	}
}

// inboundAudioBytes is a page expression: a promise of the audio bytes
// received over all of the page's connections, by their inbound-rtp
// statistics.
const inboundAudioBytes = `Promise.all((window.__pcs || []).map(pc => pc.getStats())).then(all => {
	let n = 0;
	all.forEach(stats => stats.forEach(s => { if (s.type === "inbound-rtp" && s.kind === "audio") n += s.bytesReceived || 0; }));
	return n;
})`

// waitInboundAudio waits until b's page has received more than after bytes
// of audio, and returns how many.
func waitInboundAudio(b *browser, after float64) float64 {
	b.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		n := evalPromise[float64](b, inboundAudioBytes)
		if n > after {
			return n
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("%s: received %v bytes of audio in 20 s, want more than %v", b.name, n, after)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func voiceText(b *browser, testid string) string {
	b.t.Helper()
	return strings.TrimSpace(eval[string](b, `document.querySelector('[data-testid="`+testid+`"]').textContent`))
}

// TestBrowserVoice: at a private game, a VIP speaks and the other player,
// who is no VIP and has only the button to listen, hears them: their
// connection carries a live remote audio track whose bytes arrive. Once an
// administrator takes the VIP away, the server refuses the next offer to
// speak and the page says why.
func TestBrowserVoice(t *testing.T) {
	// Nobody moves: the game must not be aborted for want of a first
	// move (30 s by default) while the voice connections come up.
	srv := startServer(t, "--first-move-time", "10m")
	alice, bob := voiceBrowser(t, "alice"), voiceBrowser(t, "bob")
	signUp(alice, srv, "alice")
	signUp(bob, srv, "bob")
	setVIP(t, srv, "alice", "on")
	startPrivateGame(t, srv, alice, bob, "10+0")

	for _, b := range []*browser{alice, bob} {
		waitFor(b, 10*time.Second, `!document.querySelector('[data-testid="voice"]').hidden`)
	}
	if n := eval[int](bob, `document.querySelectorAll('[data-testid="voice-speak"]').length`); n != 0 {
		t.Fatal("bob, who is no VIP, has a button to speak")
	}
	if got := voiceText(bob, "voice-listen"); got != "Listen" {
		t.Errorf("bob's button = %q, want Listen", got)
	}
	if got := voiceText(alice, "voice-speak"); got != "Start voice" {
		t.Errorf("alice's button = %q, want Start voice", got)
	}

	// Alice speaks: her offer reaches bob's page, which asks him to listen.
	alice.do(10*time.Second, chromedp.Click(`[data-testid="voice-speak"]`))
	waitFor(alice, 15*time.Second, `document.getElementById("voice").dataset.speak === "waiting"`)
	waitFor(bob, 15*time.Second, `document.getElementById("voice").dataset.listen === "offered"`)
	if got := voiceText(bob, "voice-listen-state"); !strings.Contains(got, "Your opponent is speaking") {
		t.Errorf("bob's state = %q", got)
	}

	// Bob listens: the connection comes up and alice's audio arrives.
	bob.do(10*time.Second, chromedp.Click(`[data-testid="voice-listen"]`))
	waitFor(bob, 30*time.Second, `document.getElementById("voice").dataset.listen === "live"`)
	waitFor(alice, 30*time.Second, `document.getElementById("voice").dataset.speak === "live"`)
	if got := voiceText(bob, "voice-listen-state"); got != "Listening to your opponent." {
		t.Errorf("bob's state = %q", got)
	}
	if got := voiceText(alice, "voice-speak-state"); got != "Your opponent can hear you." {
		t.Errorf("alice's state = %q", got)
	}
	alice.screenshot("speaking")
	bob.screenshot("listening")
	tracks := `(window.__pcs || []).flatMap(pc => pc.getReceivers()).filter(r => r.track && r.track.kind === "audio" && r.track.readyState === "live").length`
	if n := eval[int](bob, tracks); n < 1 {
		t.Errorf("bob's connections have %d live remote audio tracks", n)
	}
	if ok := eval[bool](bob, `(() => { const s = document.querySelector('[data-testid="voice-audio"]').srcObject; return !!s && s.getAudioTracks().length > 0; })()`); !ok {
		t.Error("bob's page does not play the remote audio")
	}
	got := waitInboundAudio(bob, 0)
	got2 := waitInboundAudio(bob, got) // and it keeps flowing
	t.Logf("bob received %v, then %v bytes of alice's audio", got, got2)
	if n := evalPromise[float64](alice, inboundAudioBytes); n != 0 {
		t.Errorf("alice, who does not listen, received %v bytes of audio", n)
	}

	// Bob reloads his page: it hangs up as it goes, and alice's page waits
	// for him; once he listens again, alice's page offers anew.
	bob.do(30*time.Second, chromedp.Reload(), chromedp.WaitVisible(`[data-testid="voice-listen"]`))
	waitFor(alice, 15*time.Second, `document.getElementById("voice").dataset.speak === "waiting"`)
	bob.do(10*time.Second, chromedp.Click(`[data-testid="voice-listen"]`))
	waitFor(bob, 30*time.Second, `document.getElementById("voice").dataset.listen === "live"`)
	waitFor(alice, 30*time.Second, `document.getElementById("voice").dataset.speak === "live"`)
	waitInboundAudio(bob, 0)

	// Mute and unmute.
	alice.do(10*time.Second, chromedp.Click(`[data-testid="voice-speak"]`))
	waitFor(alice, 5*time.Second, `document.getElementById("voice").dataset.speak === "muted"`)
	if got := voiceText(alice, "voice-speak"); got != "Unmute" {
		t.Errorf("muted button = %q, want Unmute", got)
	}
	if n := eval[int](alice, `(window.__pcs || []).flatMap(pc => pc.getSenders()).filter(s => s.track && s.track.enabled).length`); n != 0 {
		t.Errorf("muted, alice still sends %d enabled tracks", n)
	}
	alice.do(10*time.Second, chromedp.Click(`[data-testid="voice-speak"]`))
	waitFor(alice, 5*time.Second, `document.getElementById("voice").dataset.speak === "live"`)

	// Alice stops: bob's page hears the bye.
	alice.do(10*time.Second, chromedp.Click(`[data-testid="voice-stop"]`))
	waitFor(alice, 5*time.Second, `document.getElementById("voice").dataset.speak === "off"`)
	waitFor(bob, 15*time.Second, `document.getElementById("voice").dataset.listen === "waiting"`)

	// The VIP is taken away: the server refuses alice's next offer, and
	// her page says why and stops.
	setVIP(t, srv, "alice", "off")
	alice.do(10*time.Second, chromedp.Click(`[data-testid="voice-speak"]`))
	waitFor(alice, 15*time.Second, `document.querySelector('[data-testid="voice-error"]').textContent.trim() !== ""`)
	if got := voiceText(alice, "voice-error"); got != "Only VIP members can speak in voice chat. You can still listen." {
		t.Errorf("alice's notice = %q", got)
	}
	waitFor(alice, 5*time.Second, `document.getElementById("voice").dataset.speak === "off"`)
	if state := eval[string](bob, `document.getElementById("voice").dataset.listen`); state != "waiting" {
		t.Errorf("bob's page after the refused offer: %q, want waiting (nothing relayed)", state)
	}
	// Bob, never a VIP, forges what his page would send to speak: a real
	// offer of his microphone, sendrecv as browsers make it by default.
	// The server refuses it with the message and relays nothing.
	forged := evalPromise[string](bob, `(async () => {
		const mic = await navigator.mediaDevices.getUserMedia({audio: true});
		const pc = new RTCPeerConnection();
		mic.getTracks().forEach(t => pc.addTrack(t, mic));
		await pc.setLocalDescription(await pc.createOffer());
		const resp = await fetch(document.getElementById("voice").dataset.voicePath, {method: "POST",
			body: new URLSearchParams({kind: "offer", conn: "bob-forged-0001", sdp: pc.localDescription.sdp})});
		pc.close();
		mic.getTracks().forEach(t => t.stop());
		return resp.status + " " + await resp.text();
	})()`)
	if forged != "403 Only VIP members can speak in voice chat. You can still listen." {
		t.Errorf("bob's forged offer: %q, want 403 and the message", forged)
	}
	if state := eval[string](alice, `document.getElementById("voice").dataset.listen`); state != "off" {
		t.Errorf("alice's page after bob's forged offer: %q, want off (nothing relayed)", state)
	}
	for _, b := range []*browser{alice, bob} {
		if v := cspViolations(b); len(v) > 0 {
			t.Errorf("%s: the browser blocked %d things: %q", b.name, len(v), v)
		}
	}
}

// evalPromise evaluates a JavaScript expression whose value is a promise
// in b's page and returns what it resolves to.
func evalPromise[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: eval %s: %v", b.name, expr, err)
	}
	return v
}

// TestBrowserVoiceBothWays: two VIPs speak and listen at once, each
// starting at the same moment; each page makes its own connection to send,
// so the offers never collide, and each hears the other. At the game's
// end both pages hang up.
func TestBrowserVoiceBothWays(t *testing.T) {
	// Nobody moves: the game must not be aborted for want of a first
	// move (30 s by default) while the voice connections come up.
	srv := startServer(t, "--first-move-time", "10m")
	alice, bob := voiceBrowser(t, "alice"), voiceBrowser(t, "bob")
	signUp(alice, srv, "alice")
	signUp(bob, srv, "bob")
	setVIP(t, srv, "alice", "on")
	setVIP(t, srv, "bob", "on")
	startPrivateGame(t, srv, alice, bob, "10+0")

	both := []*browser{alice, bob}
	for _, b := range both {
		waitFor(b, 10*time.Second, `!document.querySelector('[data-testid="voice"]').hidden`)
		b.do(10*time.Second, chromedp.Click(`[data-testid="voice-listen"]`))
	}
	for _, b := range both {
		b.do(10*time.Second, chromedp.Click(`[data-testid="voice-speak"]`))
	}
	for _, b := range both {
		waitFor(b, 30*time.Second, `document.getElementById("voice").dataset.speak === "live"`)
		waitFor(b, 30*time.Second, `document.getElementById("voice").dataset.listen === "live"`)
	}
	for _, b := range both {
		// One connection each way.
		waitFor(b, 10*time.Second, `window.__pcs.filter(pc => pc.connectionState === "connected").length === 2`)
		n := waitInboundAudio(b, 0)
		t.Logf("%s received %v bytes of audio", b.name, n)
		if got := voiceText(b, "voice-error"); got != "" {
			t.Errorf("%s shows %q", b.name, got)
		}
	}

	// Alice resigns: her page reloads on the ended game, which has no
	// voice chat; bob's, told by its stream, hangs up, lets go of the
	// microphone and puts the voice chat away.
	clickInPanel(alice, `[data-testid="resign-open"]`)
	clickInPanel(alice, `[data-testid="resign-confirm"]`)
	waitFor(bob, 15*time.Second, `document.getElementById("voice").hidden`)
	waitFor(bob, 10*time.Second, `window.__pcs.every(pc => pc.connectionState === "closed")`)
	if ok := eval[bool](bob, `window.__pcs.flatMap(pc => pc.getSenders()).every(s => !s.track || s.track.readyState === "ended")`); !ok {
		t.Error("bob's page still holds the microphone after the game's end")
	}
	waitFor(alice, 15*time.Second, `document.querySelector('[data-testid="game-panel"]').dataset.status !== "active"`)
	if n := eval[int](alice, `document.querySelectorAll('[data-testid="voice"]').length`); n != 0 {
		t.Error("alice's page of the ended game has the voice chat")
	}
	bob.screenshot("ended")
}
