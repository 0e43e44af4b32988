package views

import (
	"context"
	"io"
	"sync"

	"github.com/a-h/templ"
)

// testID returns the attribute that names an element for the tests and
// the scripts: data-testid, or data-tid in the markup the game page keeps
// as templates (inTemplates), which board.js turns into data-testid on
// the copies it puts on the page. So a template is no second element to
// a test that reads the page's markup, template contents included.
//
// The attributes are made once a name (the names are the templates'
// constants) and shared by every render, which only reads them: made
// for each element, they were some 5 KB of the 44 KB a game page's
// render allocated (BenchmarkGamePage).
func testID(ctx context.Context, name string) templ.Attributer {
	pair := testIDs.of(name)
	if ctx.Value(templatesKey{}) != nil {
		return pair[1]
	}
	return pair[0]
}

// testIDs keeps testID's attributes, data-testid and data-tid, by name.
var testIDs = testIDCache{byName: make(map[string]*[2]templ.OrderedAttributes)}

type testIDCache struct {
	mu     sync.RWMutex
	byName map[string]*[2]templ.OrderedAttributes
}

func (c *testIDCache) of(name string) *[2]templ.OrderedAttributes {
	c.mu.RLock()
	pair := c.byName[name]
	c.mu.RUnlock()
	if pair != nil {
		return pair
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if pair = c.byName[name]; pair == nil {
		pair = &[2]templ.OrderedAttributes{
			{{Key: "data-testid", Value: name}},
			{{Key: "data-tid", Value: name}},
		}
		c.byName[name] = pair
	}
	return pair
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
