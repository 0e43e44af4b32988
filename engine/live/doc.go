// Package live is an in-memory publish/subscribe hub: subscribers follow a
// topic (such as a game id) and receive the messages published on it. It
// knows nothing of HTTP; the SSE handlers read a Subscription's channel.
//
//	hub := live.New[int64, *play.Event](16)
//	sub := hub.Subscribe(gameID)
//	defer sub.Close()
//	for e := range sub.C() { ... } // closed when the subscriber is dropped
//
// Publish never blocks: a subscriber whose buffer is full is dropped and its
// channel closed, and its client reconnects for a fresh snapshot.
package live
