package cluster

import (
	"context"

	"satranc/engine/play"
)

// Port is play.Config.Cluster: the games' service sees the cluster through
// it and nothing else. Claims go to the node's leases; events go out on
// the bus, if there is one (--nats): a game's events with their
// snapshots for the nodes that serve its streams, the endings for their
// standings pages.
type Port struct {
	node *Node
	bus  *Bus // nil: no bus
}

// NewPort returns the port of node, with bus (nil for none).
func NewPort(node *Node, bus *Bus) *Port { return &Port{node: node, bus: bus} }

// Claim is play.Cluster.Claim (Node.Claim).
func (p *Port) Claim(ctx context.Context, id int64) error { return p.node.Claim(ctx, id) }

// Publish is play.Cluster.Publish: Relay for a game's topic, Announce for
// play.Endings.
func (p *Port) Publish(topic int64, e play.Event) {
	switch {
	case p.bus == nil:
	case topic == play.Endings:
		p.bus.Announce(e)
	default:
		p.bus.Relay(e)
	}
}
