// Package views holds Satranç's templ components and the view models they
// take. Components render typed view models built by the New... functions
// in viewmodels.go from engine values; they never reach into the engine
// themselves beyond reading those types.
//
//	b := views.NewBoardView(pos, chess.White).WithLastMove(m)
//	err := views.HomePage(b).Render(ctx, w)
//
// Edit the .templ files and run `go tool templ generate`; the generated
// *_templ.go files are committed.
package views
