package views

// VoiceView is the voice chat of a player's game page (voice.templ). The
// page's voice.js does the rest with the browser's WebRTC.
type VoiceView struct {
	// Open is set for a player of a game that is not over, unless it is a
	// practice game against the computer. At a public table it is open
	// even against a bot, who never answers, as a person may not: the
	// page must not tell them apart.
	Open bool
	// CanSpeak is set for VIP members, who get the button to speak.
	CanSpeak bool
	// ICEServers is the STUN and TURN servers, a JSON array for the
	// browser's RTCPeerConnection.
	ICEServers string
}

// voiceTexts are the keys (under voice.) of the texts voice.js shows as
// the connections change.
var voiceTexts = []string{
	"start", "mute", "unmute", "listen", "stop_listening",
	"speak_starting", "speak_waiting", "speak_connecting", "speak_live", "speak_muted", "no_mic",
	"listen_off", "listen_offered", "listen_waiting", "listen_connecting", "listen_live", "failed",
}
