// Package lobby seats players at public tables (SPEC section 5): Quick Play
// and the five staked lounges. A player joins the queue of one table (a
// lounge or Quick Play, and a time control); waiting players of similar
// rating are paired. A player still waiting after BotFillAfter gets the
// nearest-rated other player waiting at that table, or, alone there, a
// computer opponent at the level nearest their rating (SPEC section 6).
//
// The matching rules are pure functions of the queue and the time (Queues);
// Service runs them in one goroutine that owns all the queues, creates the
// paired games through play and tells each waiting player, on a hub topic of
// their own, which game to go to.
//
//	lb := lobby.New(lobby.Config{Games: playService, Players: st, Balances: st})
//	go lb.Run(ctx)
//	err := lb.Join(ctx, user, lobby.Table{Control: clock.MustParse("5+0")})
//	sub := lb.Subscribe(user) // an Event when the game starts
package lobby
