package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"time"
	_ "time/tzdata" // --time-zone works on a machine without zoneinfo

	"satranc/engine/account"
	"satranc/engine/bot"
	"satranc/engine/chips"
	"satranc/engine/cosmetics"
	"satranc/engine/game"
	"satranc/engine/live"
	"satranc/engine/lobby"
	"satranc/engine/play"
	"satranc/engine/tourney"
	"satranc/handlers"
	"satranc/handlers/cluster"
	"satranc/handlers/tlsserve"
	"satranc/locales"
	"satranc/store"
)

// shutdownTimeout bounds how long a shutdown waits for requests in flight.
const shutdownTimeout = 10 * time.Second

// serveConfig is the configuration of the serve command.
type serveConfig struct {
	addr      string             // listen address
	tls       tlsserve.Config    // HTTPS, and its redirect listener: TLS and HTTPAddr (cli_serve_tls.go)
	dbPath    string             // SQLite file, or a postgres:// URL
	authLimit handlers.RateLimit // log-in and sign-up attempts per client address
	support   string             // support contact shown in the footer
	debugAddr string             // pprof and metrics listener; "" for none
	// disconnectGrace is how long a player who lost the connection has to
	// come back (SPEC section 8: 45 s; tests shorten it).
	disconnectGrace time.Duration
	// firstMoveTime is how long each player of a timed game has for their
	// first move (SPEC section 4: game.DefaultFirstMoveTime; tests
	// shorten it).
	firstMoveTime time.Duration
	// signupGrant and dailyBonus are the chips of the sign-up grant and the
	// daily bonus (SPEC section 5; defaults in engine/chips and the README).
	signupGrant, dailyBonus int64
	// proxies are the reverse proxies whose forwarding headers are
	// believed; baseURL is the site's public address (nil: as reached).
	proxies handlers.TrustedProxies
	baseURL *url.URL
	// inviteExpiry is how long a private game's invitation stays open
	// before the game is cancelled (play.DefaultInviteExpiry: a day).
	inviteExpiry time.Duration
	// botFillAfter is how long a player waits at a public table before
	// the nearest-rated player waiting there, or if none a bot, takes the
	// empty seat (SPEC section 6: about 6 s).
	botFillAfter time.Duration
	// iceServers are the STUN and TURN servers of voice chat; none by
	// default (see handlers.ParseICEServers).
	iceServers []handlers.ICEServer
	// timeZone is where the tournaments' days and weeks begin; prizes is
	// the prize table (tourney.DefaultPrizes unless --prizes names a file).
	timeZone *time.Location
	prizes   tourney.Prizes
	// nodeAddr is where the other nodes of a cluster reach this one; nil:
	// a single node (handlers/cluster).
	nodeAddr *url.URL
	// natsURL is the NATS server carrying the live games' events and the
	// ends of games between the nodes; "": none (handlers/cluster).
	natsURL string
	// adminUser names an account made an administrator at start, if it
	// exists; "" for none.
	adminUser string
	// lagCompensation gives players back the measured network time of
	// their moves, within bounds (handlers.Config.LagCompensation).
	lagCompensation bool
}

// runServe parses the serve flags (defaults from SATRANC_ADDR, SATRANC_DB)
// and runs the web server until ctx is cancelled.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: satranc serve [flags]\n\nRuns the web server; creates and migrates the database on first start.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var cfg serveConfig
	fs.StringVar(&cfg.addr, "addr", envOr("SATRANC_ADDR", ":8080"), "listen `address`; :443 when --domain or --tls-cert is given (env SATRANC_ADDR)")
	fs.StringVar(&cfg.dbPath, "db", envOr("SATRANC_DB", "satranc.db"), "SQLite database `file`, or a postgres:// URL for several nodes sharing one PostgreSQL database (env SATRANC_DB)")
	fs.IntVar(&cfg.authLimit.Burst, "auth-burst", handlers.DefaultAuthLimit.Burst,
		"log-in and sign-up attempts a client address may make at once (env SATRANC_AUTH_BURST)")
	fs.DurationVar(&cfg.authLimit.Every, "auth-every", handlers.DefaultAuthLimit.Every,
		"after the burst, one more attempt per `interval` (env SATRANC_AUTH_EVERY)")
	fs.DurationVar(&cfg.disconnectGrace, "disconnect-grace", game.DefaultDisconnectGrace,
		"how long a disconnected player has to come back before losing (env SATRANC_DISCONNECT_GRACE)")
	fs.DurationVar(&cfg.firstMoveTime, "first-move-time", game.DefaultFirstMoveTime,
		"how long each player of a timed game has for their first move, or the game is aborted; the clocks start once both have moved (env SATRANC_FIRST_MOVE_TIME)")
	fs.DurationVar(&cfg.inviteExpiry, "invite-expiry", play.DefaultInviteExpiry,
		"how long a private game's invitation stays open: a game nobody joins within it is cancelled, without effect on ratings or chips (env SATRANC_INVITE_EXPIRY)")
	fs.DurationVar(&cfg.botFillAfter, "bot-fill-after", lobby.DefaultBotFillAfter,
		"how long a player waits at a public table before the nearest-rated player waiting there, or if none a computer player, takes the seat (env SATRANC_BOT_FILL_AFTER)")
	fs.StringVar(&cfg.support, "support", envOr("SATRANC_SUPPORT", ""),
		"support `contact` shown in every page's footer: an e-mail address, a web address or a short text (env SATRANC_SUPPORT)")
	fs.StringVar(&cfg.debugAddr, "debug-addr", envOr("SATRANC_DEBUG_ADDR", ""),
		"listen `address` for pprof (/debug/pprof/) and /metrics, apart from the site; keep it private, such as 127.0.0.1:6060; empty: off (env SATRANC_DEBUG_ADDR)")
	fs.Int64Var(&cfg.signupGrant, "signup-grant", chips.DefaultSignupGrant,
		"`chips` a new account receives (env SATRANC_SIGNUP_GRANT)")
	fs.Int64Var(&cfg.dailyBonus, "daily-bonus", chips.DefaultDailyBonus,
		"`chips` of the daily bonus, once per UTC day (env SATRANC_DAILY_BONUS)")
	trustedProxy := fs.String("trusted-proxy", envOr("SATRANC_TRUSTED_PROXY", ""),
		"comma-separated `addresses` or networks of the reverse proxies in front of the server (such as 127.0.0.1,::1); their X-Forwarded-For gives the client's address and X-Forwarded-Proto https marks cookies Secure; empty: none (env SATRANC_TRUSTED_PROXY)")
	baseURL := fs.String("base-url", envOr("SATRANC_BASE_URL", ""),
		"the site's public `URL`, such as https://chess.example.org, used in invite links; empty: the address the browser used (env SATRANC_BASE_URL)")
	iceServers := fs.String("ice-servers", envOr("SATRANC_ICE_SERVERS", ""),
		"STUN and TURN `servers` for voice chat: comma-separated stun: URLs, or a JSON array of {urls, username, credential}; empty: none, which connects players on the same network only (env SATRANC_ICE_SERVERS)")
	zone := fs.String("time-zone", envOr("SATRANC_TIME_ZONE", defaultTimeZone),
		"IANA time `zone` in which the Daily Chess Cup ends at midnight and the Weekly Chess League on Monday at 00:00 (env SATRANC_TIME_ZONE)")
	prizeFile := fs.String("prizes", envOr("SATRANC_PRIZES", ""),
		"JSON `file` with the tournaments' prize table, such as {\"daily\": [{\"chips\": 10000, \"item\": \"frame_cup_gold\"}], \"weekly\": [...]}; empty: the built-in table (env SATRANC_PRIZES)")
	nodeAddr := fs.String("node-addr", envOr("SATRANC_NODE_ADDR", ""),
		"this node's `URL` for the other nodes, such as http://10.0.0.2:8080, when several nodes share one PostgreSQL database (--db postgres://...): each live game is then run by one node, to which the others forward its requests; empty: a single node (env SATRANC_NODE_ADDR)")
	fs.StringVar(&cfg.adminUser, "admin-user", envOr("SATRANC_ADMIN_USER", ""),
		"make the account `NAME` an administrator at start, if it exists (the first account created is one anyway) (env SATRANC_ADMIN_USER)")
	fs.StringVar(&cfg.natsURL, "nats", envOr("SATRANC_NATS", ""),
		"NATS server `URL`, such as nats://10.0.0.5:4222, carrying the live games' events and the ends of games between the nodes of a cluster, so that each node serves the game streams of its own viewers; needs --node-addr; empty: none (env SATRANC_NATS)")
	fs.BoolVar(&cfg.lagCompensation, "lag-compensation", true,
		"give players back the network time of their moves, as the server measures it: up to 0.5 s a move from an allowance of 2 s per game that each move refills by 0.25 s (env SATRANC_LAG_COMPENSATION)")
	var tlsf tlsFlags
	tlsf.register(fs)
	var logs logFlags
	logs.register(fs)
	if err := setFromEnv(fs, map[string]string{
		"auth-burst": "SATRANC_AUTH_BURST", "auth-every": "SATRANC_AUTH_EVERY",
		"disconnect-grace": "SATRANC_DISCONNECT_GRACE", "bot-fill-after": "SATRANC_BOT_FILL_AFTER",
		"signup-grant": "SATRANC_SIGNUP_GRANT", "daily-bonus": "SATRANC_DAILY_BONUS",
		"invite-expiry": "SATRANC_INVITE_EXPIRY", "first-move-time": "SATRANC_FIRST_MOVE_TIME",
		"lag-compensation": "SATRANC_LAG_COMPENSATION",
	}); err != nil {
		fmt.Fprintf(stderr, "satranc serve: %v\n", err)
		return 2
	}
	err := fs.Parse(args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if cfg.authLimit.Burst < 1 || cfg.authLimit.Every <= 0 {
		fmt.Fprintln(stderr, "satranc serve: --auth-burst must be at least 1 and --auth-every positive")
		return 2
	}
	if cfg.disconnectGrace <= 0 {
		fmt.Fprintln(stderr, "satranc serve: --disconnect-grace must be positive")
		return 2
	}
	if cfg.firstMoveTime <= 0 {
		fmt.Fprintln(stderr, "satranc serve: --first-move-time must be positive")
		return 2
	}
	if cfg.signupGrant < 0 || cfg.dailyBonus < 0 {
		fmt.Fprintln(stderr, "satranc serve: --signup-grant and --daily-bonus must not be negative")
		return 2
	}
	if cfg.botFillAfter <= 0 {
		fmt.Fprintln(stderr, "satranc serve: --bot-fill-after must be positive")
		return 2
	}
	if cfg.inviteExpiry <= 0 {
		fmt.Fprintln(stderr, "satranc serve: --invite-expiry must be positive")
		return 2
	}
	if cfg.proxies, err = handlers.ParseTrustedProxies(*trustedProxy); err != nil {
		fmt.Fprintf(stderr, "satranc serve: --trusted-proxy: %v\n", err)
		return 2
	}
	if cfg.baseURL, err = handlers.ParseBaseURL(*baseURL); err != nil {
		fmt.Fprintf(stderr, "satranc serve: --base-url: %v\n", err)
		return 2
	}
	if cfg.nodeAddr, err = handlers.ParseBaseURL(*nodeAddr); err != nil {
		fmt.Fprintf(stderr, "satranc serve: --node-addr: %v\n", err)
		return 2
	}
	if cfg.natsURL != "" && cfg.nodeAddr == nil {
		fmt.Fprintln(stderr, "satranc serve: --nats needs --node-addr: the bus links the nodes of a cluster")
		return 2
	}
	if cfg.iceServers, err = handlers.ParseICEServers(*iceServers); err != nil {
		fmt.Fprintf(stderr, "satranc serve: --ice-servers: %v\n", err)
		return 2
	}
	if cfg.timeZone, err = time.LoadLocation(*zone); err != nil || *zone == "" || *zone == "Local" {
		fmt.Fprintf(stderr, "satranc serve: --time-zone %q: not an IANA time zone such as Europe/Istanbul\n", *zone)
		return 2
	}
	if cfg.prizes, err = loadPrizes(*prizeFile); err != nil {
		fmt.Fprintf(stderr, "satranc serve: --prizes: %v\n", err)
		return 2
	}
	if cfg.tls, err = tlsf.resolve(cfg.dbPath); err != nil {
		fmt.Fprintf(stderr, "satranc serve: %v\n", err)
		return 2
	}
	if cfg.tls.TLS != nil && !flagGiven(fs, "addr", "SATRANC_ADDR") {
		cfg.addr = ":443"
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "satranc serve: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}

	logger, err := logs.logger(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "satranc serve: %v\n", err)
		return 2
	}
	if err := serve(ctx, cfg, logger); err != nil {
		logger.Error("serve", "err", err)
		return 1
	}
	return 0
}

// setFromEnv sets each flag named in env from its environment variable,
// when that is set, so that the command line (parsed afterwards) still wins.
func setFromEnv(fs *flag.FlagSet, env map[string]string) error {
	for name, key := range env {
		if v := os.Getenv(key); v != "" {
			if err := fs.Set(name, v); err != nil {
				return fmt.Errorf("%s: %w", key, err)
			}
		}
	}
	return nil
}

// envOr returns the environment variable key, or def when it is unset or
// empty.
func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// serve opens the store, listens and serves until ctx is done, then shuts
// down gracefully.
func serve(ctx context.Context, cfg serveConfig, logger *slog.Logger) (err error) {
	logger.Info("garbage collector", "gogc", tuneGC(os.Getenv))
	st, err := store.Open(ctx, cfg.dbPath)
	if err != nil {
		return err
	}
	st.SignupGrant, st.DailyBonus = cfg.signupGrant, cfg.dailyBonus
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()

	if err := promoteAdmin(ctx, st, cfg.adminUser, logger); err != nil {
		return err
	}

	bundle, err := locales.NewBundle()
	if err != nil {
		return err
	}
	accounts, err := account.NewService(st, account.NewHasher(account.DefaultParams), account.SessionTTL)
	if err != nil {
		return err
	}
	var cl *cluster.Node
	var claim func(context.Context, int64) error
	if cfg.nodeAddr != nil {
		if cl, err = cluster.Join(st, cfg.nodeAddr, logger); err != nil {
			return err
		}
		claim = cl.Claim
		defer cl.Release(context.WithoutCancel(ctx)) // after the games' writers stopped (defers run last first)
		logger.Info("cluster node", "node", cl.ID(), "addr", cfg.nodeAddr.String())
	}
	hub := live.New[int64, play.Event](0)
	var b *cluster.Bus
	var announce func(play.Event)
	var relay func(play.Event, play.Snapshot)
	var feeds handlers.GameFeeds
	if cfg.natsURL != "" {
		if b, err = cluster.Connect(ctx, cfg.natsURL, cl, hub, logger); err != nil {
			return err
		}
		defer b.Close()
		announce, relay, feeds = b.Announce, b.Relay, b.Feeds()
	}
	searches := bot.NewPool(0) // at most one search per core, for every game
	games := play.New(play.Config{
		Hub:             hub,
		Claim:           claim,
		Announce:        announce,
		Relay:           relay,
		Store:           st,
		Bots:            botFactory(searches),
		PublicBots:      publicBotFactory(searches),
		DisconnectGrace: cfg.disconnectGrace,
		FirstMoveTime:   cfg.firstMoveTime,
		InviteExpiry:    cfg.inviteExpiry,
		Logger:          logger,
	})
	defer games.Close()
	if b != nil {
		if err := b.ServeGames(ctx, games); err != nil {
			return err
		}
	}
	if cl != nil {
		renewCtx, stopRenew := context.WithCancel(ctx)
		renewDone := make(chan struct{})
		go func() { cl.Renew(renewCtx); close(renewDone) }()
		defer func() { stopRenew(); <-renewDone }()
	}
	if n, err := games.Recover(ctx); err != nil {
		return fmt.Errorf("recover games: %w", err)
	} else if n > 0 {
		logger.Info("resumed unfinished games", "games", n)
	}
	// Tournament prizes: the periods that ended while the server was down
	// are paid now, then each one as it ends (after the games are back,
	// so that a recovered game's end is in the standings).
	tourneys := tourney.New(tourney.Config{Store: st, Location: cfg.timeZone, Prizes: cfg.prizes, Logger: logger})
	payCtx, stopPayouts := context.WithCancel(ctx)
	payDone := make(chan struct{})
	go func() { tourneys.Run(payCtx); close(payDone) }()
	defer func() { stopPayouts(); <-payDone }()
	// Voids made by `satranc admin void` reach the open standings pages
	// through the database (the pages' own are announced at once too).
	defer watchVoids(ctx, st, games, logger)()
	// The lobby stops before the games (defers run last first), so that
	// no game is created for a service that is closing.
	lb := lobby.New(lobby.Config{Games: games, Players: st, Balances: st, BotFillAfter: cfg.botFillAfter, Logger: logger})
	lobbyCtx, stopLobby := context.WithCancel(ctx)
	lobbyDone := make(chan struct{})
	go func() { lb.Run(lobbyCtx); close(lobbyDone) }()
	defer func() { stopLobby(); <-lobbyDone }()
	metrics := handlers.NewMetrics(handlers.MetricsConfig{Version: buildVersion(), LiveGames: games.LiveGames,
		BotSearches: searches.Stats, StoreErrors: st.Errors})
	h := handlers.New(handlers.Config{
		Logger:         logger,
		DB:             st,
		Accounts:       accounts,
		Bundle:         bundle,
		AuthLimit:      cfg.authLimit,
		SupportContact: cfg.support,
		Version:        buildVersion(),
		Metrics:        metrics,
		Games:          games,
		Chat:           games,
		Voice:          games,
		Users:          st,
		Lobby:          lb,
		Bonus:          st,
		Leaderboard:    st,
		Profiles:       st,
		Cosmetics:      cosmetics.NewService(st),
		TrustedProxies: cfg.proxies,
		BaseURL:        cfg.baseURL,
		ICEServers:     cfg.iceServers,
		Tournaments:    tourneys,
		Owners:         cl.Owners(),
		Feeds:          feeds,
		Admin:          st,
		Reports:        st,
		Settlements:    st,
		Voided:         games,
		InPlay:         st,
		// The rules page tells the grace and first-move time the games
		// run with.
		DisconnectGrace: cfg.disconnectGrace,
		FirstMoveTime:   cfg.firstMoveTime,
		LagCompensation: cfg.lagCompensation,
	})

	// Shutdown cancels the requests' contexts at once, which ends the
	// event streams (handlers.NewServer; Handler.ShutdownServer for the
	// spectators' streams taken out of net/http).
	srv := handlers.NewServer(cfg.addr, h.Routes(), logger)
	// With TLS, HTTPS and a plain HTTP listener redirecting to it
	// (handlers/tlsserve).
	site, err := tlsserve.Listen(ctx, tlsserve.Config{Addr: cfg.addr, TLS: cfg.tls.TLS, HTTPAddr: cfg.tls.HTTPAddr,
		BaseURL: cfg.baseURL, Logger: logger}, srv)
	if err != nil {
		return err
	}
	site.Log("db", store.Redacted(cfg.dbPath))
	if cfg.debugAddr != "" {
		stopDebug, err := startDebugServer(cfg.debugAddr, handlers.DebugRoutes(metrics), logger)
		if err != nil {
			site.Close()
			return err
		}
		defer stopDebug()
	}

	errc := site.Serve()
	select {
	case err := <-errc:
		site.Close()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}

	logger.Info("shutting down")
	shutCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	// The spectators' streams that run outside net/http end and are
	// waited for too, before the games close.
	if err := h.ShutdownServer(shutCtx, srv); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := site.Shutdown(shutCtx); err != nil {
		return err
	}
	logger.Info("stopped")
	return nil
}

// promoteAdmin makes the account name an administrator (serve
// --admin-user). An account that does not exist yet is only logged: the
// server starts all the same, and the next start promotes it once it has
// signed up.
func promoteAdmin(ctx context.Context, st *store.Store, name string, logger *slog.Logger) error {
	if name == "" {
		return nil
	}
	err := st.SetAdmin(ctx, name, true)
	switch {
	case errors.Is(err, store.ErrNotFound):
		logger.Warn("--admin-user: no such account yet", "user", name)
		return nil
	case err != nil:
		return fmt.Errorf("--admin-user: %w", err)
	}
	logger.Info("administrator", "user", name)
	return nil
}
