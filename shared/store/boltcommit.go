package store

import bolt "go.etcd.io/bbolt"

// boltWrite is one write waiting for the transaction that carries it: fn
// changes one game in the bucket or returns why not, changing nothing.
type boltWrite struct {
	fn   func(*bolt.Bucket) error
	err  error
	done chan struct{}
}

// commit runs fn in a write transaction and returns once that transaction is on
// disk. bbolt writes one transaction at a time, each with its own fsync; under
// load the writes of many games would wait for each other's fsyncs in a row.
// So a write that finds none in progress starts a transaction at once, alone,
// and the writes that arrive meanwhile share the next one: one fsync for all of
// them (group commit), with no delay added to a write that finds the store idle.
// Each write's own refusal (a version conflict, a missing game) changes nothing
// and does not affect the others; a transaction that fails fails all its writes.
func (b *Bolt) commit(fn func(*bolt.Bucket) error) error {
	w := &boltWrite{fn: fn, done: make(chan struct{})}
	b.wmu.Lock()
	b.pending = append(b.pending, w)
	lead := !b.writing
	b.writing = true
	b.wmu.Unlock()
	if lead {
		b.writeBatch()
	}
	<-w.done
	return w.err
}

// writeBatch writes every pending write in one transaction. If more have queued
// meanwhile, a new goroutine writes them, so that the writer that led returns as
// soon as its own write is on disk.
func (b *Bolt) writeBatch() {
	b.wmu.Lock()
	batch := b.pending
	b.pending = nil
	b.wmu.Unlock()
	err := b.db.Update(func(tx *bolt.Tx) error {
		if b.beforeTx != nil {
			b.beforeTx()
		}
		bk := tx.Bucket(boltBucket)
		for _, w := range batch {
			w.err = w.fn(bk)
		}
		return nil
	})
	for _, w := range batch {
		if err != nil {
			w.err = err
		}
		close(w.done)
	}
	b.wmu.Lock()
	more := len(b.pending) > 0
	b.writing = more
	b.wmu.Unlock()
	if more {
		go b.writeBatch()
	}
}
