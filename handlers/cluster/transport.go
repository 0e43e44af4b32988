package cluster

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
)

// transport is what the bus needs of its connection to NATS: natsConn is
// the real one; the tests use an in-memory fake.
type transport interface {
	// Publish sends data on subject without waiting (at most once).
	Publish(subject string, data []byte) error
	// Subscribe calls fn with each message on subject until unsubscribe
	// is called; unsubscribing a closed connection is not an error.
	Subscribe(subject string, fn func(data []byte)) (unsubscribe func() error, err error)
	// Answer replies to each request on subject with fn's answer, each
	// request in its own goroutine (one slow game holds no other).
	Answer(subject string, fn func(data []byte) []byte) error
	// Request sends data on subject and returns the reply.
	Request(ctx context.Context, subject string, data []byte) ([]byte, error)
	// Flush returns once the server has what was sent, subscriptions
	// included.
	Flush(ctx context.Context) error
	// Connected reports whether the connection is up now.
	Connected() bool
	// Close sends what is buffered, then disconnects.
	Close()
}

// flushTimeout bounds a flush whose context has no earlier deadline (as
// nats.Conn.Flush does).
const flushTimeout = 10 * time.Second

// natsConn is a transport on a NATS connection.
type natsConn struct {
	nc  *nats.Conn
	log *slog.Logger
}

func (c natsConn) Publish(subject string, data []byte) error { return c.nc.Publish(subject, data) }

func (c natsConn) Subscribe(subject string, fn func([]byte)) (func() error, error) {
	sub, err := c.nc.Subscribe(subject, func(m *nats.Msg) { fn(m.Data) })
	if err != nil {
		return nil, err
	}
	return func() error {
		if err := sub.Unsubscribe(); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
			return err
		}
		return nil
	}, nil
}

func (c natsConn) Answer(subject string, fn func([]byte) []byte) error {
	_, err := c.nc.Subscribe(subject, func(m *nats.Msg) {
		go func() {
			if err := m.Respond(fn(m.Data)); err != nil {
				c.log.Warn("bus: answer a request", "subject", m.Subject, "err", err)
			}
		}()
	})
	return err
}

func (c natsConn) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	m, err := c.nc.RequestWithContext(ctx, subject, data)
	if err != nil {
		return nil, err
	}
	return m.Data, nil
}

func (c natsConn) Flush(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, flushTimeout)
	defer cancel()
	return c.nc.FlushWithContext(ctx)
}

func (c natsConn) Connected() bool { return c.nc.IsConnected() }

func (c natsConn) Close() {
	if err := c.nc.Drain(); err != nil {
		c.nc.Close()
	}
}
