package views

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"satranc/engine/account"
	"satranc/engine/chess"
	"satranc/engine/elo"
	"satranc/engine/game"
	"satranc/engine/opening"
	"satranc/engine/play"
)

// SSE event names and swap targets of the game page, shared by the
// components and the stream handler.
const (
	// EventGame carries the whole game panel, rendered for the viewer.
	EventGame = "game"
	// EventVoice carries a voice signal of the opponent (JSON), for the
	// page's voice.js; never to spectators.
	EventVoice = "voice"
	// EventLagPing carries a ping (a nonce) that a player's page posts
	// back at once, to measure the round trip for lag compensation
	// (handlers/lag.go, static/js/board.js); never to spectators.
	EventLagPing = "lag-ping"
)

// ClockEvent names the event that carries side's clock alone.
func ClockEvent(side chess.Color) string { return "clock-" + side.String() }

// GameView is the game page for one viewer: a player of one side or a
// spectator.
type GameView struct {
	ID    int64
	Kind  play.Kind
	Ply   int
	Board BoardView
	// Interactive is set when the viewer is to move: the board then takes
	// moves, and Legal lists them (LegalText in UCI).
	Interactive bool
	Legal       []chess.Move
	// Player is set when the viewer plays in the game; Side is their side.
	Player bool
	Side   chess.Color
	// Top and Bottom are the players as seen: the viewer's side at the
	// bottom (White for spectators).
	Top, Bottom PlayerView
	Moves       MoveList
	Status      game.Status
	Outcome     game.Outcome
	ToMove      chess.Color
	InCheck     bool
	// Timed is false in an untimed practice game; ControlText is the time
	// control, such as "3+2".
	Timed       bool
	ControlText string
	// DrawOffered is set while a draw offer stands; DrawOfferByMe tells
	// whose it is.
	DrawOffered, DrawOfferByMe bool
	CanOfferDraw               bool
	// OpponentGone is the opponent's disconnection countdown, if running.
	OpponentGone time.Duration
	// FirstMove is the first-move countdown while the clocks wait for a
	// first move (game_firstmove.templ).
	FirstMove FirstMoveView
	// OwnGrace is how long the viewer, a player of a live game, has to
	// come back after losing the connection: the page counts it down
	// itself when its event stream fails (static/js/board.js).
	OwnGrace time.Duration
	// InviteURL is the link a private game's creator shares while the game
	// waits for the friend; InviteExpiresIn is how long the invitation
	// stays open (0: for good).
	InviteURL       string
	InviteExpiresIn time.Duration
	// Stake is a lounge game's stake per player; Unstaked says the
	// same-opponent rule made this game unstaked.
	Stake    int64
	Unstaked bool
	// Voided says an administrator voided the finished game's result.
	Voided bool
	// Rematchable says the player may ask for a rematch: the game is over,
	// and it was played (not cancelled before anyone joined).
	Rematchable bool
	// RematchByMe and RematchByOpponent are pending rematch requests;
	// RematchID is the new game once both agreed.
	RematchByMe, RematchByOpponent bool
	RematchID                      int64
	// Chat is the latest chat of the two players (chat.go), for players
	// only; Muted hides the opponent's lines. ChatError is a refused
	// message's notice, for the chat form of a page without JavaScript.
	Chat      []ChatLine
	Muted     bool
	ChatError *Message
	// Voice is the voice chat (voice.go); the handler fills in what the
	// snapshot does not say.
	Voice VoiceView
	// Abortable says the abort rule applies (SPEC section 3): the resign
	// button aborts the game, and says so.
	Abortable bool
	// ChatOpen says the viewer, a player, has someone to talk to: not in a
	// practice game against the computer, nor while a private game waits
	// for the friend.
	ChatOpen bool
	// CanLeave says leaving the table means more than resigning: a table
	// with a person (or a seat filled for one) at it, not a practice game.
	CanLeave bool
	// Result is the result panel once the game is over (game_result.go).
	Result ResultView
	// CanReport: the viewer, a player, may report the opponent; Reported:
	// they did already; ReportError is a refused report's message
	// (report.templ).
	CanReport   bool
	Reported    bool
	ReportError *Message
	// Opening is the opening of the game's position (engine/opening), as
	// the handler names it; zero when none (openingLine).
	Opening opening.Opening
}

// PlayerView is one side of the board: who plays it and their clock.
type PlayerView struct {
	Side  chess.Color
	Name  string
	IsBot bool
	Bot   game.Level
	// BotName is the ordinary player name a bot goes by at a public
	// table; "" in a practice game, where it is shown as the computer.
	BotName string
	Clock   ClockView
	// Frame is the player's chosen frame (a cosmetics.Frame item ID), ""
	// for a bot or an empty seat.
	Frame string
	// Rating is the player's rating in a rated game (a bot's fixed one),
	// 0 where none is shown.
	Rating int
	// Material is what the player has taken and their lead, in the
	// position shown.
	Material Material
}

// ClockView is one clock at the moment of rendering.
type ClockView struct {
	Timed     bool
	Remaining time.Duration
	Running   bool
}

// RemainingMS returns the time left in whole milliseconds, for the page's
// countdown.
func (c ClockView) RemainingMS() string {
	return strconv.FormatInt(max(c.Remaining.Milliseconds(), 0), 10)
}

// Text returns the time left as m:ss (h:mm:ss from an hour, m:ss.t under
// ten seconds), as the page's script also writes it.
func (c ClockView) Text() string {
	d := max(c.Remaining, 0)
	ms := d.Milliseconds()
	h, m, s := ms/3600000, ms/60000%60, ms/1000%60
	switch {
	case h > 0:
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	case ms < 10000:
		return fmt.Sprintf("%d:%02d.%d", m, s, ms/100%10)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

// Class returns the clock's CSS classes: red under 30 s, pulsing under 10.
func (c ClockView) Class() string {
	switch {
	case c.Remaining < 10*time.Second:
		return "clock clock-low clock-critical"
	case c.Remaining < 30*time.Second:
		return "clock clock-low"
	}
	return "clock"
}

// MoveRow is one line of the move list: a move number with White's and
// Black's moves in SAN ("" where there is none).
type MoveRow struct {
	Number       int
	White, Black string
}

// GameViewInput is what NewGameView needs besides the snapshot.
type GameViewInput struct {
	// Viewer is the user looking at the page; 0 for nobody.
	Viewer int64
	// Names maps user IDs to their names, Frames to the frames they
	// chose (cosmetics; a missing one draws no frame), Ratings to their
	// ratings (read for rated games only).
	Names   map[int64]string
	Frames  map[int64]string
	Ratings map[int64]int
	// Letters are the piece letters of the page language.
	Letters chess.Letters
	// BaseURL is prepended to the invite path to make a link to share.
	BaseURL string
	// Now is the time of rendering, for countdowns.
	Now time.Time
	// SAN is the moves of snap in SAN in Letters when the caller has them
	// (a game's streams share them, handlers/game_san.go), read only; when
	// it holds another number of moves than the snapshot, they are worked
	// out from the moves.
	SAN []string
	// Chat is the game's chat log, given only for a player; Muted says
	// that the player muted the opponent.
	Chat  []play.ChatMessage
	Muted bool
	// Settlement is what the game's settlement gave the viewer, a player
	// of a game that is over, as the database holds it; nil when it could
	// not be read (the result panel then asks for it again).
	Settlement *play.Settlement
	// Opening is the opening of snap's position (engine/opening), or of
	// the position shown by a replay; zero when the game has none.
	Opening opening.Opening
}

// NewPlayerViews returns the players of snap as the viewer sees them, top
// and bottom: the viewer's side at the bottom, White for a spectator. It
// is all a clock update needs of the view.
func NewPlayerViews(snap play.Snapshot, in GameViewInput) (top, bottom PlayerView) {
	b := chess.White
	if side, ok := snap.SideOf(in.Viewer); ok {
		b = side
	}
	var material [2]Material
	material[chess.White], material[chess.Black] = NewMaterial(snap.Position)
	player := func(side chess.Color) PlayerView {
		seat := snap.Seat(side)
		pv := PlayerView{Side: side, Name: in.Names[seat.User], IsBot: seat.IsBot(), Bot: seat.Bot, Frame: in.Frames[seat.User], Material: material[side]}
		if pv.IsBot && isPublic(snap.Kind) {
			pv.BotName = account.PublicBotName(snap.ID, side)
		}
		if isPublic(snap.Kind) && !snap.Unstaked {
			pv.Rating = in.Ratings[seat.User]
			if pv.IsBot {
				pv.Rating = elo.BotRating(seat.Bot)
			}
		}
		pv.Clock = ClockView{
			Timed:     snap.Clocks.Timed,
			Remaining: snap.Clocks.Remaining(side),
			Running:   snap.Clocks.Running && snap.Clocks.Side == side && !snap.Status.Over(),
		}
		return pv
	}
	return player(b.Other()), player(b)
}

// NewGameView builds the game page's view of snap for a viewer.
func NewGameView(snap play.Snapshot, in GameViewInput) GameView {
	v := GameView{
		ID: snap.ID, Kind: snap.Kind, Ply: snap.Ply, Status: snap.Status, Outcome: snap.Outcome,
		ToMove: snap.Position.SideToMove(), InCheck: snap.Position.InCheck(),
		Timed: snap.Control.Timed(), ControlText: snap.Control.String(),
		Stake: snap.Stake, Unstaked: snap.Unstaked, Voided: !snap.VoidedAt.IsZero(),
		Opening: in.Opening,
	}
	v.Side, v.Player = snap.SideOf(in.Viewer)
	bottom := chess.White
	if v.Player {
		bottom = v.Side
	}
	last, _ := snap.LastMove()
	v.Board = NewBoardView(snap.Position, bottom).WithLastMove(last)

	v.Top, v.Bottom = NewPlayerViews(snap, in)

	san := in.SAN
	if len(san) != len(snap.Moves) {
		san = snap.SAN(in.Letters)
	}
	v.Moves = NewMoveList(snap.Start, san)

	live := snap.Status == game.Active
	v.FirstMove = newFirstMoveView(snap, v, in.Now)
	if v.Player && live {
		opp := v.Side.Other()
		if d := snap.DisconnectDeadline[opp]; !d.IsZero() {
			v.OpponentGone = max(d.Sub(in.Now), 0)
		}
		v.OwnGrace = snap.DisconnectGrace
		v.DrawOffered = snap.DrawOffer
		v.DrawOfferByMe = snap.DrawOffer && snap.DrawOfferBy == v.Side
		v.CanOfferDraw = !snap.DrawOffer && snap.Ply >= 2
		if v.ToMove == v.Side {
			v.Interactive = true
			v.Legal = snap.Position.LegalMoves()
		}
	}
	if v.Player && snap.Status == game.Waiting && snap.InviteToken != "" {
		v.InviteURL = strings.TrimSuffix(in.BaseURL, "/") + "/invite/" + snap.InviteToken
		if !snap.JoinBy.IsZero() {
			v.InviteExpiresIn = max(snap.JoinBy.Sub(in.Now), time.Second)
		}
	}
	if v.Player && snap.Status.Over() && !snap.StartedAt.IsZero() {
		v.Rematchable = true
		v.RematchByMe = snap.RematchOffer[v.Side]
		v.RematchByOpponent = snap.RematchOffer[v.Side.Other()]
		v.RematchID = snap.RematchID
	}
	if v.Player {
		v.Chat, v.Muted = chatLines(snap, v.Side, in), in.Muted
		v.Voice.Open = !snap.Status.Over() && snap.Kind != play.Practice
		v.ChatOpen = snap.Kind != play.Practice
		v.CanLeave = snap.Kind != play.Practice
		v.Abortable = live && snap.Abortable
	}
	v.Result = newResultView(snap, v, in.Settlement)
	return v
}

// LegalText returns the legal moves as data-legal wants them.
func (v GameView) LegalText() string {
	b := make([]byte, 0, 5*len(v.Legal))
	for i, m := range v.Legal {
		if i > 0 {
			b = append(b, ' ')
		}
		b = m.AppendUCI(b)
	}
	return string(b)
}

// PlyText returns the ply as form and event values want it.
func (v GameView) PlyText() string { return strconv.Itoa(v.Ply) }

// Path returns the game's path, with suffix appended.
func (v GameView) Path(suffix string) string {
	return "/games/" + strconv.FormatInt(v.ID, 10) + suffix
}

// Over reports whether the game has ended.
func (v GameView) Over() bool { return v.Status.Over() }

// Live reports whether the game is being played.
func (v GameView) Live() bool { return v.Status == game.Active }

// MovePly returns the ply after the move of row i of the move list:
// White's, or Black's when black is set. A game that starts with Black to
// move has no White move in its first row.
func (v GameView) MovePly(i int, black bool) int {
	ply := 2*i + 1
	if v.Moves.blackFirst && v.Moves.Plies() > 0 {
		ply--
	}
	if black {
		ply++
	}
	return ply
}

// Score returns the result as the move list ends with it: "1-0", "0-1",
// "½-½", or "" for a game with no result (aborted, cancelled, not over).
func (v GameView) Score() string {
	switch v.Outcome.Result {
	case game.WhiteWins, game.BlackWins:
		return v.Outcome.Result.String()
	case game.Draw:
		return "½-½"
	}
	return ""
}

// EndReason returns how the game ended, without the result: the last
// line of the move list, under the score.
func (v GameView) EndReason(ctx context.Context) string {
	side := T(ctx, "game.side."+v.Outcome.Side.String())
	return TD(ctx, "game.end."+v.Outcome.Reason.String(), map[string]any{"Side": side})
}

// InviteHours is InviteExpiresIn in whole hours, rounded up.
func (v GameView) InviteHours() int {
	return int((v.InviteExpiresIn + time.Hour - 1) / time.Hour)
}

// StatusText returns the status line in the page language.
func (v GameView) StatusText(ctx context.Context) string {
	switch v.Status {
	case game.Waiting:
		return T(ctx, "game.status.waiting")
	case game.Active:
		switch {
		case v.Player && v.ToMove == v.Side && v.InCheck:
			return T(ctx, "game.status.your_move_check")
		case v.Player && v.ToMove == v.Side:
			return T(ctx, "game.status.your_move")
		case v.Player:
			return T(ctx, "game.status.their_move")
		case v.ToMove == chess.White:
			return T(ctx, "game.status.white_to_move")
		}
		return T(ctx, "game.status.black_to_move")
	}
	return v.EndText(ctx)
}

// EndText describes how the game ended: the reason, who it was about, and
// the result.
func (v GameView) EndText(ctx context.Context) string {
	o := v.Outcome
	reason := v.EndReason(ctx)
	var result string
	switch o.Result {
	case game.WhiteWins:
		result = T(ctx, "game.result.white_wins")
	case game.BlackWins:
		result = T(ctx, "game.result.black_wins")
	case game.Draw:
		result = T(ctx, "game.result.draw")
	default:
		return reason
	}
	return reason + " — " + result
}

// DisplayName returns the name shown for the player: the user name, or
// the computer level in a practice game; at a public table a bot goes by

// Heading returns the page's heading: the two players, White first.
func (v GameView) Heading(ctx context.Context) string {
	white, black := v.Top, v.Bottom
	if white.Side != chess.White {
		white, black = black, white
	}
	return TD(ctx, "game.heading", map[string]any{"White": white.DisplayName(ctx), "Black": black.DisplayName(ctx)})
}

// an ordinary player name (BotName).
func (p PlayerView) DisplayName(ctx context.Context) string {
	if p.IsBot && p.BotName != "" {
		return p.BotName
	}
	if p.IsBot {
		return T(ctx, "game.bot."+p.Bot.String())
	}
	if p.Name == "" {
		return T(ctx, "game.empty_seat")
	}
	return p.Name
}

// NameClass returns the CSS classes of the player's name, with their
// frame's.
func (p PlayerView) NameClass() string {
	c := "player-name player-" + p.Testid()
	if f := FrameClass(p.Frame); f != "" {
		c += " " + f
	}
	return c
}

// Testid returns "white" or "black", for data-testid attributes.
func (p PlayerView) Testid() string { return p.Side.String() }
