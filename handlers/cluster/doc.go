// Package cluster is the multi-node adapter (docs/scaling.md): several
// satranc serve processes on one PostgreSQL database, each live game owned
// by one node at a time, and, with NATS, each game's events carried from
// its owner to the nodes that serve its streams.
//
// Package main wires it from its flags:
//
//	node, err := cluster.Join(ctx, st, nodeAddr, log) // --node-addr
//	// handlers.Config{Owners: node.Owners()}
//	go node.Renew(ctx)
//	defer node.Release(context.WithoutCancel(ctx))
//
//	bus, err := cluster.Connect(ctx, natsURL, node, hub, log) // --nats, or nil
//	// handlers.Config{Feeds: bus.Feeds()}
//	// play.Config{Cluster: cluster.NewPort(node, bus)}
//	err = bus.ServeGames(ctx, games) // before the games' writers start
//	defer bus.Close()
//
// A Node holds the leases (node.go); a Port is all engine/play sees of
// the cluster (port.go); a Bus carries the endings (bus.go), a game's
// events in their wire format (wire.go) and the requests to its owner
// (relay.go), serves the
// streams of games other nodes own (feed.go), and counts the players'
// streams on other nodes for the games this node owns (presence.go).
package cluster
