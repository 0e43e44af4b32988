// Voice chat at a table (views/voice.templ; SPEC section 9): both players
// may listen, VIP members may speak. The sound goes between the two
// browsers over WebRTC; the server relays only the set-up. This page posts
// its signals to data-voice-path and receives the opponent's as "voice"
// events on the game's event stream (handlers/game_voice.go), and the
// server refuses to relay an offer to send audio from anyone but a VIP.
//
// A speaking page makes its own connection to the listener: it offers to
// send (sendonly) and the listening page answers to receive (recvonly).
// Two VIPs speaking to each other thus have two connections, one each
// way, and no offer ever crosses another. A connection is named by its
// offerer (conn). A page that starts to listen says so ("listen"), and a
// speaking page then offers again; "bye" closes a connection.
//
// The state shows in the texts and in data-speak / data-listen on the
// section: off, starting, waiting, connecting, live, muted, failed (speak);
// off, offered, waiting, connecting, live, failed (listen).
(function () {
  "use strict";

  var root = document.getElementById("voice");
  if (!root || !window.RTCPeerConnection) return; // stays hidden
  root.hidden = false;

  var path = root.getAttribute("data-voice-path");
  var iceServers = [];
  try {
    iceServers = JSON.parse(root.getAttribute("data-ice-servers") || "[]");
  } catch (e) {
    iceServers = [];
  }
  var speakButton = root.querySelector('[data-voice="speak"]');
  var stopButton = root.querySelector('[data-voice="stop"]');
  var listenButton = root.querySelector('[data-voice="listen"]');
  var speakState = root.querySelector('[data-testid="voice-speak-state"]');
  var listenState = root.querySelector('[data-testid="voice-listen-state"]');
  var errorBox = document.getElementById("voice-error");
  var audio = document.createElement("audio");
  audio.autoplay = true;
  audio.hidden = true;
  audio.setAttribute("data-testid", "voice-audio");
  root.appendChild(audio);

  // speaking: {stream, muted, conn (the connection, or null while nobody
  // listens), starting}, or null. incoming: the opponent's latest offer,
  // {name, sdp, early (candidates before the answer), conn (once
  // answered)}, or null. listening: the player pressed Listen.
  var speaking = null;
  var incoming = null;
  var listening = false;
  var micRefused = false;

  function text(key) {
    var el = root.querySelector('[data-voice-text="' + key + '"]');
    return el ? el.textContent : "";
  }

  function showError(err) {
    errorBox.textContent = (err && err.serverText) || text("failed");
  }

  function clearError() {
    errorBox.textContent = "";
  }

  // Signals go out one after the other, in order: the opponent gets an
  // offer or an answer before the candidates that follow it.
  var outbox = Promise.resolve();
  function send(fields) {
    var p = outbox.then(function () {
      return fetch(path, { method: "POST", body: new URLSearchParams(fields), credentials: "same-origin" });
    }).then(function (resp) {
      if (resp.ok) return;
      return resp.text().then(function (msg) {
        var err = new Error(msg);
        err.serverText = msg; // the server's localised refusal
        throw err;
      });
    });
    outbox = p.catch(function () {});
    return p;
  }

  function newName() {
    var b = new Uint8Array(12);
    crypto.getRandomValues(b);
    return Array.prototype.map.call(b, function (x) { return ("0" + x.toString(16)).slice(-2); }).join("");
  }

  // connection makes one RTCPeerConnection named name. Its own candidates
  // wait until its description is sent; the opponent's until the remote
  // description is set.
  function connection(name) {
    var c = { name: name, pc: new RTCPeerConnection({ iceServers: iceServers }), described: false, out: [], remoteSet: false, early: [] };
    c.pc.onicecandidate = function (e) {
      if (!e.candidate || !e.candidate.candidate) return;
      var f = { kind: "candidate", conn: name, candidate: e.candidate.candidate, mid: e.candidate.sdpMid || "", mline: e.candidate.sdpMLineIndex || 0 };
      if (c.described) send(f).catch(showError);
      else c.out.push(f);
    };
    c.pc.onconnectionstatechange = render;
    return c;
  }

  function describe(c, kind) {
    var p = send({ kind: kind, conn: c.name, sdp: c.pc.localDescription.sdp });
    c.described = true;
    c.out.forEach(function (f) { send(f).catch(showError); });
    c.out = [];
    return p;
  }

  function remoteDescribed(c) {
    c.remoteSet = true;
    c.early.forEach(function (x) { c.pc.addIceCandidate(x).catch(function () {}); });
    c.early = [];
  }

  function addCandidate(c, cand) {
    if (c.remoteSet) c.pc.addIceCandidate(cand).catch(function () {});
    else c.early.push(cand);
  }

  function close(c) {
    if (c) c.pc.close();
  }

  // Speaking (VIP members).

  function startSpeaking() {
    clearError();
    micRefused = false;
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      micRefused = true;
      render();
      return;
    }
    var s = { stream: null, muted: false, conn: null, starting: true };
    speaking = s;
    render();
    navigator.mediaDevices.getUserMedia({ audio: true, video: false }).then(function (stream) {
      if (speaking !== s) {
        stopTracks(stream);
        return;
      }
      s.stream = stream;
      s.starting = false;
      offer();
    }, function () {
      if (speaking === s) speaking = null;
      micRefused = true;
      render();
    });
  }

  // offerAgain offers a new connection when the opponent asks for one
  // ("listen"), once every few seconds at most: an opponent who keeps
  // asking must not use up this page's signals.
  var lastOffer = 0;
  var offerTimer = null;
  function offerAgain() {
    if (offerTimer) return;
    offerTimer = setTimeout(function () {
      offerTimer = null;
      if (speaking && speaking.stream) offer();
    }, Math.max(0, lastOffer + 3000 - Date.now()));
  }

  // offer makes a new connection to the opponent and offers it; a refusal
  // (the server's message) ends speaking.
  function offer() {
    var s = speaking;
    lastOffer = Date.now();
    close(s.conn);
    var c = connection(newName());
    s.conn = c;
    s.stream.getAudioTracks().forEach(function (t) {
      c.pc.addTransceiver(t, { direction: "sendonly", streams: [s.stream] });
    });
    render();
    c.pc.createOffer().then(function (d) {
      return c.pc.setLocalDescription(d);
    }).then(function () {
      return describe(c, "offer");
    }).catch(function (err) {
      if (speaking === s && s.conn === c) stopSpeaking(false);
      showError(err);
    });
  }

  function stopSpeaking(sayBye) {
    var s = speaking;
    if (!s) return;
    speaking = null;
    if (s.conn && sayBye) send({ kind: "bye", conn: s.conn.name }).catch(function () {});
    close(s.conn);
    if (s.stream) stopTracks(s.stream);
    render();
  }

  function stopTracks(stream) {
    stream.getTracks().forEach(function (t) { t.stop(); });
  }

  function toggleMute() {
    var s = speaking;
    s.muted = !s.muted;
    if (s.stream) s.stream.getAudioTracks().forEach(function (t) { t.enabled = !s.muted; });
    render();
  }

  // Listening (everyone).

  function toggleListen() {
    clearError();
    if (listening) {
      listening = false;
      if (incoming && incoming.conn) {
        send({ kind: "bye", conn: incoming.name }).catch(function () {});
        close(incoming.conn);
        incoming = null;
      }
      audio.srcObject = null;
      render();
      return;
    }
    listening = true;
    if (incoming && !incoming.conn) answer();
    else send({ kind: "listen" }).catch(showError);
    render();
  }

  // answer answers the opponent's offer, to receive.
  function answer() {
    var inc = incoming;
    var c = connection(inc.name);
    c.early = inc.early;
    inc.conn = c;
    c.pc.ontrack = function (e) {
      audio.srcObject = e.streams[0] || new MediaStream([e.track]);
      audio.play().catch(function () {});
    };
    render();
    c.pc.setRemoteDescription({ type: "offer", sdp: inc.sdp }).then(function () {
      remoteDescribed(c);
      return c.pc.createAnswer();
    }).then(function (d) {
      return c.pc.setLocalDescription(d);
    }).then(function () {
      return describe(c, "answer");
    }).catch(function (err) {
      if (incoming === inc) {
        close(c);
        incoming = null;
      }
      showError(err);
      render();
    });
  }

  // The opponent's signals.

  function receive(msg) {
    var s = speaking;
    var cand = { candidate: msg.candidate, sdpMid: msg.mid || null, sdpMLineIndex: msg.mline || 0 };
    switch (msg.kind) {
      case "offer":
        if (incoming) close(incoming.conn);
        incoming = { name: msg.conn, sdp: msg.sdp, early: [], conn: null };
        if (listening) answer();
        break;
      case "answer":
        if (s && s.conn && s.conn.name === msg.conn) {
          var c = s.conn;
          c.pc.setRemoteDescription({ type: "answer", sdp: msg.sdp }).then(function () {
            remoteDescribed(c);
            render();
          }, showError);
        }
        break;
      case "candidate":
        if (s && s.conn && s.conn.name === msg.conn) addCandidate(s.conn, cand);
        else if (incoming && incoming.name === msg.conn) {
          if (incoming.conn) addCandidate(incoming.conn, cand);
          else incoming.early.push(cand);
        }
        break;
      case "listen":
        if (s && s.stream) offerAgain();
        break;
      case "bye":
        if (s && s.conn && s.conn.name === msg.conn) {
          close(s.conn);
          s.conn = null;
        }
        if (incoming && incoming.name === msg.conn) {
          close(incoming.conn);
          incoming = null;
          audio.srcObject = null;
        }
        break;
    }
    render();
  }

  // The event stream is htmx's: take its EventSource when it opens, and
  // again after every reconnection (a new one, or the same one reopened).
  // Signals sent while the stream was down are lost: after a reconnection
  // a listener that hears nothing asks for a new offer.
  var sources = new WeakSet();
  var opened = false;
  document.addEventListener("htmx:sseOpen", function (e) {
    var src = e.detail && e.detail.source;
    if (!src) return;
    if (opened && listening && !(incoming && incoming.conn && incoming.conn.pc.connectionState === "connected")) {
      send({ kind: "listen" }).catch(function () {});
    }
    opened = true;
    if (sources.has(src)) return;
    sources.add(src);
    src.addEventListener("voice", function (ev) {
      var msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (err) {
        return;
      }
      receive(msg);
    });
  });

  // The voice chat is the table's while the game is on: at its end (the
  // panel's data-status, redrawn whole or by a move's delta, as sounds.js
  // hears it) both pages hang up on their own, since the server relays no
  // more signals, and the section goes away as on the ended game's page.
  var closed = false;
  document.addEventListener("htmx:afterSwap", function () {
    var panel = document.querySelector('[data-testid="game-panel"]');
    var status = panel ? panel.dataset.status : "";
    if (closed || !status || status === "active" || status === "waiting") return;
    closed = true;
    stopSpeaking(false);
    listening = false;
    if (incoming) close(incoming.conn);
    incoming = null;
    audio.srcObject = null;
    clearTimeout(offerTimer);
    root.hidden = true;
  });

  // Leaving the page hangs up at once rather than when the connection
  // times out.
  window.addEventListener("pagehide", function () {
    [speaking && speaking.conn, incoming && incoming.conn].forEach(function (c) {
      if (c) navigator.sendBeacon(path, new URLSearchParams({ kind: "bye", conn: c.name }));
    });
  });

  function connState(c) {
    if (!c) return "";
    var st = c.pc.connectionState;
    if (st === "connected") return "live";
    if (st === "failed") return "failed";
    return "connecting";
  }

  function render() {
    var speak = "off";
    var s = speaking;
    if (s) {
      if (s.starting) speak = "starting";
      else if (s.muted) speak = "muted";
      else if (!s.conn || !s.conn.remoteSet) speak = "waiting";
      else speak = connState(s.conn);
    }
    var listen = "off";
    if (!listening) listen = incoming ? "offered" : "off";
    else if (!incoming || !incoming.conn) listen = "waiting";
    else listen = connState(incoming.conn);

    root.setAttribute("data-speak", speak);
    root.setAttribute("data-listen", listen);
    if (speakState) {
      speakState.textContent = micRefused ? text("no_mic") : speak === "off" ? "" : speak === "failed" ? text("failed") : text("speak_" + speak);
    }
    listenState.textContent = listen === "failed" ? text("failed") : text("listen_" + listen);
    if (speakButton) {
      speakButton.textContent = !s ? text("start") : s.muted ? text("unmute") : text("mute");
      speakButton.disabled = !!(s && s.starting);
      speakButton.setAttribute("aria-pressed", s && s.muted ? "true" : "false");
      stopButton.hidden = !s;
    }
    listenButton.textContent = listening ? text("stop_listening") : text("listen");
    listenButton.setAttribute("aria-pressed", listening ? "true" : "false");
  }

  if (speakButton) {
    speakButton.addEventListener("click", function () {
      if (speaking) toggleMute();
      else startSpeaking();
    });
    stopButton.addEventListener("click", function () {
      clearError();
      stopSpeaking(true);
    });
  }
  listenButton.addEventListener("click", toggleListen);
  render();
})();
