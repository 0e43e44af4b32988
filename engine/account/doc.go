// Package account holds Satranç's accounts: the User and its profile, the
// rules for usernames and passwords, argon2id password hashing, and the
// sign-up, log-in, log-out and session use cases. It declares the Store it
// needs; store.Store implements it.
//
//	svc := account.NewService(st, account.NewHasher(account.DefaultParams), account.SessionTTL)
//	u, sess, err := svc.SignUp(ctx, "ayse_1990", "correct horse", "tr")
//	// set a cookie holding sess.Token until sess.Expires
//	u, err = svc.UserBySession(ctx, sess.Token)
//
// The package carries no HTTP status codes or translation keys: callers
// branch on its sentinel errors.
package account
