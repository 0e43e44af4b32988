package handlers

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"satranc/engine/game"
	"satranc/locales"
	"satranc/static"
	"satranc/views"
)

// Pinger is the part of the database the health check needs.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Config holds what the handlers depend on.
type Config struct {
	// Logger receives the request log and internal errors; nil discards.
	Logger *slog.Logger
	// DB is pinged by /healthz.
	DB Pinger
	// Accounts runs sign-up, log-in and sessions; nil leaves the account
	// routes out and every visitor a guest (tests of other pages).
	Accounts Accounts
	// Bundle holds the interface texts; nil uses locales.Default().
	Bundle *i18n.Bundle
	// AuthLimit limits log-in and sign-up attempts per client address;
	// the zero value means DefaultAuthLimit.
	AuthLimit RateLimit
	// MoveLimit limits each player's move attempts and draw offers and
	// answers; the zero value means DefaultMoveLimit.
	MoveLimit RateLimit
	// CreateLimit limits each user's requests that start something that
	// lasts: a practice or private game, joining a private game by its
	// invitation, a rematch, a place in a queue; the zero value means
	// DefaultCreateLimit.
	CreateLimit RateLimit
	// DisconnectGrace is how long a disconnected player has to come back,
	// as the games run it (play.Config.DisconnectGrace), for the rules
	// page; 0 means game.DefaultDisconnectGrace.
	DisconnectGrace time.Duration
	// FirstMoveTime is how long each player of a timed game has for their
	// first move (play.Config.FirstMoveTime), for the rules page; 0 means
	// game.DefaultFirstMoveTime.
	FirstMoveTime time.Duration
	// SupportContact is shown in the footer of every page (an e-mail
	// address, a web address or a short text); empty leaves it out.
	SupportContact string
	// Version is the server's version, shown in the footer of every page;
	// empty leaves it out.
	Version string
	// Metrics records the request, stream and move metrics and serves
	// them at /metrics; nil leaves both out.
	Metrics *Metrics
	// Games runs the games; nil leaves the game pages out.
	Games Games
	// Users names the players at a game; required with Games.
	Users Users
	// Chat is the players' table chat at a game; required with Games.
	Chat GameChat
	// Voice relays the players' voice chat at a game; required with
	// Games.
	Voice GameVoice
	// Bonus hands out the daily bonus in the lobby; nil leaves it out.
	Bonus Bonus
	// Lobby seats players at the public tables; nil leaves the lobby
	// pages out.
	Lobby Lobby
	// Leaderboard ranks the players and Profiles shows them; nil leaves
	// /leaderboard, and the player and replay pages, out.
	Leaderboard Leaderboard
	Profiles    Profiles
	// Cosmetics serves the settings page (board theme, piece set, frame);
	// nil leaves /settings out.
	Cosmetics Cosmetics
	// Tournaments runs the Daily Chess Cup and the Weekly Chess League;
	// nil leaves the tournament pages out. Their standings are live when
	// Games is set too.
	Tournaments Tournaments
	// TrustedProxies are the reverse proxies whose X-Forwarded-For and
	// X-Forwarded-Proto headers are believed; empty believes none.
	TrustedProxies TrustedProxies
	// BaseURL is the site's public address, used for links to share (a
	// private game's invite) and trusted as an origin for POSTs; nil uses
	// the address the browser reached.
	BaseURL *url.URL
	// ICEServers are the STUN and TURN servers the pages use for voice
	// chat; none by default (see ParseICEServers).
	ICEServers []ICEServer
	// Admin runs the administration pages under /admin, for
	// administrators only; nil leaves them out.
	Admin Admin
	// Reports takes the players' reports from the game page; nil leaves
	// the report button out.
	Reports Reports
	// Settlements reads what a game's end gave each player, for the
	// result panel (game_result.go); nil leaves its figures out.
	Settlements Settlements
	// Voided hears of each result voided on the administration pages;
	// nil: nobody.
	Voided VoidAnnouncer
	// InPlay tells each member's game in progress (the header's link back
	// to it) and the home page's counts; nil: neither is shown.
	InPlay InPlay
	// Heartbeat and ClockSync pace the game streams: a comment line on an
	// idle stream, and the clocks of a live game (0: DefaultHeartbeat and
	// DefaultClockSync; tests shorten them).
	Heartbeat, ClockSync time.Duration
	// LagCompensation measures each player's round trip to the server
	// and gives it back on their moves' clocks, within bounds
	// (clock.LagCredit, lag.go); off, the streams send no pings. LagPing
	// paces a player's stream's pings: one goes with the next event once
	// LagPing has passed since the last, or on its own after twice that
	// (0: DefaultLagPing).
	LagCompensation bool
	LagPing         time.Duration
	// StreamWriteTimeout is how long an event may take to reach a client
	// before the stream is dropped (0: DefaultStreamWriteTimeout).
	StreamWriteTimeout time.Duration
	// StreamLimits caps the event streams open at once per member, per
	// client address and in all (stream_limit.go); the zero value means
	// the defaults.
	StreamLimits StreamLimits
	// Owners, with several nodes on one database, tells which node owns
	// each live game, and the game's requests are forwarded there
	// (forward.go); nil: a single node.
	Owners Owners
	// Feeds, with Owners and a bus between the nodes, serves here the
	// event streams of games another node owns (game_feed.go); nil:
	// such streams are forwarded to the owner.
	Feeds GameFeeds
}

// Handler serves Satranç's HTTP routes.
type Handler struct {
	log      *slog.Logger
	db       Pinger
	accounts Accounts
	bundle   *i18n.Bundle
	// locales are the Localizer and Texts of each language, made once
	// (localeContext), so that what they memoize serves every request.
	locales map[string]views.Locale
	// loginLimit and signupLimit count attempts per client address.
	loginLimit, signupLimit *addrLimiter
	// moveLimit counts move attempts and draw offers and answers per
	// user; createLimit the requests that create games or join queues.
	moveLimit, createLimit *addrLimiter
	// grace is Config.DisconnectGrace, told on the rules page.
	grace time.Duration
	// firstMove is Config.FirstMoveTime, told on the rules page.
	firstMove time.Duration
	// support is the footer's support contact; "" for none.
	support string
	// version is the footer's server version; "" for none.
	version string
	metrics *Metrics // nil: no metrics
	games   Games
	chat    GameChat
	voice   GameVoice
	users   Users
	lobby   Lobby
	bonus   Bonus
	// board and profiles: see Config.Leaderboard and Config.Profiles.
	board    Leaderboard
	profiles Profiles
	// cosmetics: see Config.Cosmetics.
	cosmetics Cosmetics
	tourneys  Tournaments
	proxies   TrustedProxies
	base      *url.URL // nil: as the browser reached us
	admin     Admin    // nil: no /admin pages
	reports   Reports  // nil: no report button
	// settlements: see Config.Settlements.
	settlements Settlements
	voided      VoidAnnouncer
	inPlay      InPlay // nil: no link to the game in progress
	// heartbeat and clockSync pace the game streams (see Config).
	heartbeat, clockSync time.Duration
	// lag measures the players' round trips; nil with lag compensation
	// off. lagPing paces its pings (see Config).
	lag     *lagMeter
	lagPing time.Duration
	// pacer wakes the game streams for their clock updates and pings,
	// and the Watch streams for their heartbeats.
	pacer *streamPacer
	// iceServers is Config.ICEServers as the voice script reads it (JSON).
	iceServers  string
	streamWrite time.Duration // see Config.StreamWriteTimeout
	owners      Owners        // nil: a single node
	feeds       GameFeeds     // nil: no bus
	// detached are the spectators' streams taken out of net/http
	// (sse_detach.go); ShutdownServer ends them.
	detached *detachedStreams
	// watch keeps the list of games to watch for the Watch streams.
	watch *watchHub
	// streams counts the open event streams under Config.StreamLimits.
	streams *streamLimiter

	// online counts the members seen lately, for the home page.
	online *onlineMembers
	// playCounts keeps the home page's counts of games and players.
	playCounts playCounts
	// openings names the live games' openings (opening.go).
	openings *openingCache
	// players are the players of the games with a stream open, which
	// the streams share (game_players.go).
	players gamePlayers
	// sans are the moves in SAN of the games with a stream open, which
	// the streams share (game_san.go).
	sans gameSANs
}

// New returns a Handler using the dependencies in cfg.
func New(cfg Config) *Handler {
	// Every player's game page shows the chat and the voice chat: without
	// them the pages would fail at the first player, not here.
	if cfg.Games != nil && (cfg.Chat == nil || cfg.Voice == nil) {
		panic("handlers: Config.Chat and Config.Voice are required with Config.Games")
	}
	h := &Handler{log: cfg.Logger, db: cfg.DB, accounts: cfg.Accounts, bundle: cfg.Bundle, games: cfg.Games, chat: cfg.Chat, voice: cfg.Voice, users: cfg.Users, owners: cfg.Owners}
	h.online = newOnlineMembers()
	h.openings = newOpeningCache()
	h.support, h.version = cfg.SupportContact, cfg.Version
	h.grace = cmp.Or(max(cfg.DisconnectGrace, 0), game.DefaultDisconnectGrace)
	h.firstMove = cmp.Or(max(cfg.FirstMoveTime, 0), game.DefaultFirstMoveTime)
	h.metrics, h.feeds = cfg.Metrics, cfg.Feeds
	h.lobby, h.bonus = cfg.Lobby, cfg.Bonus
	h.board, h.profiles, h.tourneys = cfg.Leaderboard, cfg.Profiles, cfg.Tournaments
	h.cosmetics = cfg.Cosmetics
	h.proxies, h.base = cfg.TrustedProxies, cfg.BaseURL
	h.admin, h.reports, h.voided = cfg.Admin, cfg.Reports, cfg.Voided
	h.settlements = cfg.Settlements
	h.inPlay = cfg.InPlay
	h.detached = newDetachedStreams()
	h.watch = newWatchHub(h)
	h.streams = newStreamLimiter(cfg.StreamLimits)
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	h.heartbeat, h.clockSync = cfg.Heartbeat, cfg.ClockSync
	if cfg.LagCompensation {
		h.lag, h.lagPing = newLagMeter(), cmp.Or(max(cfg.LagPing, 0), DefaultLagPing)
	}
	h.iceServers = iceServersJSON(cfg.ICEServers)
	if h.heartbeat <= 0 {
		h.heartbeat = DefaultHeartbeat
	}
	if h.clockSync <= 0 {
		h.clockSync = DefaultClockSync
	}
	shortest := h.clockSync // of the intervals the game streams' pacer keeps
	if h.lag != nil {
		shortest = min(shortest, 2*h.lagPing)
	}
	h.pacer = newStreamPacer(shortest)
	h.streamWrite = cmp.Or(max(cfg.StreamWriteTimeout, 0), DefaultStreamWriteTimeout)
	if h.bundle == nil {
		h.bundle = locales.Default()
	}
	h.locales = make(map[string]views.Locale, len(locales.Codes))
	for _, lang := range locales.Codes {
		loc := i18n.NewLocalizer(h.bundle, lang)
		h.locales[lang] = views.Locale{Lang: lang, Localizer: loc, Texts: views.NewTexts(loc)}
	}
	limit := cfg.AuthLimit
	if limit == (RateLimit{}) {
		limit = DefaultAuthLimit
	}
	h.loginLimit, h.signupLimit = newAddrLimiter(limit), newAddrLimiter(limit)
	if cfg.MoveLimit == (RateLimit{}) {
		cfg.MoveLimit = DefaultMoveLimit
	}
	h.moveLimit = newAddrLimiter(cfg.MoveLimit)
	if cfg.CreateLimit == (RateLimit{}) {
		cfg.CreateLimit = DefaultCreateLimit
	}
	h.createLimit = newAddrLimiter(cfg.CreateLimit)
	return h
}

// Routes returns the router with every route and the middleware.
//
// Every cross-origin request that is not GET, HEAD or OPTIONS is refused
// (http.CrossOriginProtection), so state changes only on POSTs from our own
// pages. Pages run inside h.page, which loads the session and picks the
// language; /healthz and /static/ need neither.
func (h *Handler) Routes() http.Handler {
	r := chi.NewRouter()
	r.Use(h.fromProxy) // first: the log and the limits see the client
	r.Use(h.logRequests)
	r.Use(h.metrics.instrument)
	r.Use(h.recoverPanics)
	r.Use(securityHeaders)
	r.Use(h.crossOriginProtection())
	r.Use(h.limitForms)
	r.Use(middleware.GetHead) // HEAD is answered by the GET handler

	r.NotFound(h.page(http.HandlerFunc(h.handleNotFound)).ServeHTTP)

	r.Get("/healthz", h.handleHealth)
	if h.metrics != nil {
		r.Method(http.MethodGet, "/metrics", h.metrics.Handler())
	}
	r.Handle(static.Prefix+"*", h.staticFiles())

	r.Group(func(r chi.Router) {
		r.Use(h.page)
		r.Use(h.limitStreams) // after page: it counts the member
		r.Get("/", h.handleHome)
		r.Post("/lang", h.handleLanguage)
		r.Get("/rules", h.handleRules)
		r.Get("/guidelines", h.handleGuidelines)
		r.Get("/tournament-rules", h.handleTournamentRules)
		r.Get("/terms", h.handleTerms)
		if h.board != nil {
			r.Get("/leaderboard", h.handleLeaderboard)
		}
		if h.profiles != nil {
			h.profileRoutes(r)
		}
		if h.tourneys != nil {
			h.tournamentRoutes(r)
		}
		if h.admin != nil {
			h.adminRoutes(r)
		}
		if h.accounts != nil {
			r.Get("/signup", h.handleSignupForm)
			r.Post("/signup", h.handleSignup)
			r.Get("/login", h.handleLoginForm)
			r.Post("/login", h.handleLogin)
			r.Post("/logout", h.handleLogout)
			if h.games != nil {
				// Open to guests: they see the invitation and sign up or
				// log in on the way to accepting it.
				r.With(h.forward).Get("/invite/{token}", h.handleInviteShow)
				// Open to guests too: watching (gameRoutes).
				h.gameRoutes(r)
				if h.inPlay != nil {
					h.watchRoutes(r)
				}
			}
			r.Group(func(r chi.Router) {
				r.Use(h.requireUser)
				r.Get("/profile", h.handleProfile)
				r.Post("/profile", h.handleProfileSave)
				r.Post("/settings/sound", h.handleSettingsSound)
				if h.cosmetics != nil {
					r.Get("/settings", h.handleSettings)
					r.Post("/settings", h.handleSettingsSave)
				}
				if h.lobby != nil {
					h.lobbyRoutes(r)
				}
			})
		}
	})
	// Last, to see every route: a wrong method gets the error page too.
	r.MethodNotAllowed(h.page(h.methodNotAllowed(routeTable(r))).ServeHTTP)
	return &streamsHandedOff{Router: r}
}

// render writes component c as a complete HTML response with the given
// status. The output is buffered, so a rendering error still becomes a
// proper error response instead of half a page.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	buf, err := renderPooled(r.Context(), c)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	defer putRenderBuffer(buf)
	writeHTML(w, status, buf.Bytes())
}

func writeHTML(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(body) // the client may be gone; nothing useful to do then
}
