package play

import "context"

// Cluster is what a Service needs of the other nodes when several share
// one database (docs/scaling.md): who runs a game's writer, and how an
// event leaves this node. The adapter lives outside the engine
// (handlers/cluster), with the wire format; a single node has none.
type Cluster interface {
	// Claim is asked before a game's writer starts on this node (a new
	// game, one reopened from the store, one recovered) and before each
	// write, which renews the claim: an error keeps the writer from
	// starting or stops it. Its error wraps ErrNotOwner when another
	// node owns the game.
	Claim(ctx context.Context, id int64) error
	// Publish is given every event this node publishes, with its topic
	// (a game's id, or Endings), in the order of the topic's events: the
	// other nodes serve the game's streams from them (a game's events
	// carry Event.After) and publish the endings on their own hubs. It
	// must not block.
	Publish(topic int64, e Event)
}
