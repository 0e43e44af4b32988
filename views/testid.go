package views

import (
	"context"
	"io"

	"github.com/a-h/templ"
)

// testID returns the attribute that names an element for the tests and
// the scripts: data-testid, or data-tid in the markup the game page keeps
// as templates (inTemplates), which board.js turns into data-testid on
// the copies it puts on the page. So a template is no second element to
// a test that reads the page's markup, template contents included.
func testID(ctx context.Context, name string) templ.Attributes {
	if ctx.Value(templatesKey{}) != nil {
		return templ.Attributes{"data-tid": name}
	}
	return templ.Attributes{"data-testid": name}
}

// templatesKey marks a context that renders the game page's templates.
type templatesKey struct{}

// inTemplates returns ctx marked for rendering templates (testID).
func inTemplates(ctx context.Context) context.Context {
	return context.WithValue(ctx, templatesKey{}, true)
}

// asTemplate renders c as markup kept in a template (testID).
func asTemplate(c templ.Component) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		return c.Render(inTemplates(ctx), w)
	})
}
