package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"
	_ "time/tzdata" // --time-zone works on a machine without zoneinfo

	"satranc/engine/chips"
	"satranc/engine/game"
	"satranc/engine/lobby"
	"satranc/engine/play"
	"satranc/handlers"
	"satranc/handlers/app"
	"satranc/handlers/tlsserve"
	"satranc/store/postgres"
)

// runServe parses the serve flags (defaults from SATRANC_ADDR, SATRANC_DB)
// and runs the web server (handlers/app) until ctx is cancelled.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: satranc serve [flags]\n\nRuns the web server; creates and migrates the database on first start.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var cfg app.Config
	fs.StringVar(&cfg.Addr, "addr", envOr("SATRANC_ADDR", ":8080"), "listen `address`; :443 when --domain or --tls-cert is given (env SATRANC_ADDR)")
	fs.StringVar(&cfg.DBPath, "db", envOr("SATRANC_DB", "satranc.db"), "SQLite database `file`, or a postgres:// URL for several nodes sharing one PostgreSQL database (env SATRANC_DB)")
	fs.IntVar(&cfg.AuthLimit.Burst, "auth-burst", handlers.DefaultAuthLimit.Burst,
		"log-in and sign-up attempts a client address may make at once (env SATRANC_AUTH_BURST)")
	fs.DurationVar(&cfg.AuthLimit.Every, "auth-every", handlers.DefaultAuthLimit.Every,
		"after the burst, one more attempt per `interval` (env SATRANC_AUTH_EVERY)")
	fs.DurationVar(&cfg.DisconnectGrace, "disconnect-grace", game.DefaultDisconnectGrace,
		"how long a disconnected player has to come back before losing (env SATRANC_DISCONNECT_GRACE)")
	fs.DurationVar(&cfg.FirstMoveTime, "first-move-time", game.DefaultFirstMoveTime,
		"how long each player of a timed game has for their first move, or the game is aborted; the clocks start once both have moved (env SATRANC_FIRST_MOVE_TIME)")
	fs.DurationVar(&cfg.InviteExpiry, "invite-expiry", play.DefaultInviteExpiry,
		"how long a private game's invitation stays open: a game nobody joins within it is cancelled, without effect on ratings or chips (env SATRANC_INVITE_EXPIRY)")
	fs.DurationVar(&cfg.BotFillAfter, "bot-fill-after", lobby.DefaultBotFillAfter,
		"how long a player waits at a public table before the nearest-rated player waiting there, or if none a computer player, takes the seat (env SATRANC_BOT_FILL_AFTER)")
	fs.StringVar(&cfg.Support, "support", envOr("SATRANC_SUPPORT", ""),
		"support `contact` shown in every page's footer: an e-mail address, a web address or a short text (env SATRANC_SUPPORT)")
	fs.StringVar(&cfg.DebugAddr, "debug-addr", envOr("SATRANC_DEBUG_ADDR", ""),
		"listen `address` for pprof (/debug/pprof/) and /metrics, apart from the site; keep it private, such as 127.0.0.1:6060; empty: off (env SATRANC_DEBUG_ADDR)")
	fs.Int64Var(&cfg.SignupGrant, "signup-grant", chips.DefaultSignupGrant,
		"`chips` a new account receives (env SATRANC_SIGNUP_GRANT)")
	fs.Int64Var(&cfg.DailyBonus, "daily-bonus", chips.DefaultDailyBonus,
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
	fs.StringVar(&cfg.AdminUser, "admin-user", envOr("SATRANC_ADMIN_USER", ""),
		"make the account `NAME` an administrator at start, if it exists (the first account created is one anyway) (env SATRANC_ADMIN_USER)")
	fs.StringVar(&cfg.NATSURL, "nats", envOr("SATRANC_NATS", ""),
		"NATS server `URL`, such as nats://10.0.0.5:4222, carrying the live games' events and the ends of games between the nodes of a cluster, so that each node serves the game streams of its own viewers; needs --node-addr; empty: none (env SATRANC_NATS)")
	fs.BoolVar(&cfg.LagCompensation, "lag-compensation", true,
		"give players back the network time of their moves, as the server measures it: up to 0.5 s a move from an allowance of 2 s per game that each move refills by 0.25 s (env SATRANC_LAG_COMPENSATION)")
	fs.IntVar(&cfg.StreamLimits.PerMember, "streams-per-member", handlers.DefaultStreamsPerMember,
		"event streams (live pages: games, the lobby's waiting page, standings, Watch) a signed-in member may have open at once; past it 429; 0: the default, -1: no cap (env SATRANC_STREAMS_PER_MEMBER)")
	fs.IntVar(&cfg.StreamLimits.PerAddress, "streams-per-address", handlers.DefaultStreamsPerAddress,
		"event streams a client address (behind --trusted-proxy the forwarded one; an IPv6 /64) may have open at once, guests and members together; 0: the default, -1: no cap (env SATRANC_STREAMS_PER_ADDRESS)")
	fs.IntVar(&cfg.StreamLimits.Total, "streams-max", 0,
		"event streams the server keeps open at once in all; 0: three quarters of the open-file limit, leaving at least 256 descriptors (logged at start); -1: no cap (env SATRANC_STREAMS_MAX)")
	fs.BoolVar(&cfg.H2C, "h2c", false,
		"serve HTTP/2 without TLS (h2c) beside HTTP/1.1, for a reverse proxy that speaks it to its upstream, such as Caddy with \"transport http { versions h2c }\": viewers then share the proxy's few connections (docs/operations.md); not with TLS (env SATRANC_H2C)")
	var tlsf tlsserve.Flags
	tlsf.Register(fs)
	var logs logFlags
	logs.register(fs)
	if err := setFromEnv(fs, map[string]string{
		"auth-burst": "SATRANC_AUTH_BURST", "auth-every": "SATRANC_AUTH_EVERY",
		"disconnect-grace": "SATRANC_DISCONNECT_GRACE", "bot-fill-after": "SATRANC_BOT_FILL_AFTER",
		"signup-grant": "SATRANC_SIGNUP_GRANT", "daily-bonus": "SATRANC_DAILY_BONUS",
		"invite-expiry": "SATRANC_INVITE_EXPIRY", "first-move-time": "SATRANC_FIRST_MOVE_TIME",
		"lag-compensation": "SATRANC_LAG_COMPENSATION", "h2c": "SATRANC_H2C", "streams-max": "SATRANC_STREAMS_MAX",
		"streams-per-member": "SATRANC_STREAMS_PER_MEMBER", "streams-per-address": "SATRANC_STREAMS_PER_ADDRESS",
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
	if cfg.AuthLimit.Burst < 1 || cfg.AuthLimit.Every <= 0 {
		fmt.Fprintln(stderr, "satranc serve: --auth-burst must be at least 1 and --auth-every positive")
		return 2
	}
	if cfg.DisconnectGrace <= 0 {
		fmt.Fprintln(stderr, "satranc serve: --disconnect-grace must be positive")
		return 2
	}
	if cfg.FirstMoveTime <= 0 {
		fmt.Fprintln(stderr, "satranc serve: --first-move-time must be positive")
		return 2
	}
	if cfg.SignupGrant < 0 || cfg.DailyBonus < 0 {
		fmt.Fprintln(stderr, "satranc serve: --signup-grant and --daily-bonus must not be negative")
		return 2
	}
	if cfg.BotFillAfter <= 0 {
		fmt.Fprintln(stderr, "satranc serve: --bot-fill-after must be positive")
		return 2
	}
	if l := cfg.StreamLimits; l.PerMember < -1 || l.PerAddress < -1 || l.Total < -1 {
		fmt.Fprintln(stderr, "satranc serve: --streams-per-member, --streams-per-address and --streams-max take a number of streams, 0 for the default or -1 for no cap")
		return 2
	}
	if cfg.InviteExpiry <= 0 {
		fmt.Fprintln(stderr, "satranc serve: --invite-expiry must be positive")
		return 2
	}
	if cfg.Proxies, err = handlers.ParseTrustedProxies(*trustedProxy); err != nil {
		fmt.Fprintf(stderr, "satranc serve: --trusted-proxy: %v\n", err)
		return 2
	}
	if cfg.BaseURL, err = handlers.ParseBaseURL(*baseURL); err != nil {
		fmt.Fprintf(stderr, "satranc serve: --base-url: %v\n", err)
		return 2
	}
	if cfg.NodeAddr, err = handlers.ParseBaseURL(*nodeAddr); err != nil {
		fmt.Fprintf(stderr, "satranc serve: --node-addr: %v\n", err)
		return 2
	}
	if cfg.NATSURL != "" && cfg.NodeAddr == nil {
		fmt.Fprintln(stderr, "satranc serve: --nats needs --node-addr: the bus links the nodes of a cluster")
		return 2
	}
	if cfg.ICEServers, err = handlers.ParseICEServers(*iceServers); err != nil {
		fmt.Fprintf(stderr, "satranc serve: --ice-servers: %v\n", err)
		return 2
	}
	if cfg.TimeZone, err = time.LoadLocation(*zone); err != nil || *zone == "" || *zone == "Local" {
		fmt.Fprintf(stderr, "satranc serve: --time-zone %q: not an IANA time zone such as Europe/Istanbul\n", *zone)
		return 2
	}
	if cfg.Prizes, err = loadPrizes(*prizeFile); err != nil {
		fmt.Fprintf(stderr, "satranc serve: --prizes: %v\n", err)
		return 2
	}
	if cfg.TLS, err = tlsf.Resolve(cfg.DBPath, postgres.IsURL(cfg.DBPath)); err != nil {
		fmt.Fprintf(stderr, "satranc serve: %v\n", err)
		return 2
	}
	if cfg.TLS.TLS != nil && cfg.H2C {
		fmt.Fprintln(stderr, "satranc serve: --h2c is for a plain listener behind a reverse proxy; with TLS the server speaks HTTP/2 already")
		return 2
	}
	if cfg.TLS.TLS != nil && !flagGiven(fs, "addr", "SATRANC_ADDR") {
		cfg.Addr = ":443"
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "satranc serve: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}

	logOut := newLogBuffer(stderr, logFlushEvery)
	defer logOut.Close()
	logger, err := logs.logger(logOut)
	if err != nil {
		fmt.Fprintf(stderr, "satranc serve: %v\n", err)
		return 2
	}
	logger = slog.New(promptLines{logger.Handler(), logOut})
	cfg.Version, cfg.Logger = buildVersion(), logger
	if err := app.Run(ctx, cfg); err != nil {
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

// flagGiven reports whether the flag name was set on the command line or
// its environment variable env is set.
func flagGiven(fs *flag.FlagSet, name, env string) bool {
	given := os.Getenv(env) != ""
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
