package service

import "encoding/json"

// StoredJSON returns the JSON envelope inside a stored game, so that tests in
// service_test can measure the encoding and look inside an item.
func StoredJSON(b []byte) ([]byte, error) {
	env, err := decode(b)
	if err != nil {
		return nil, err
	}
	return json.Marshal(env)
}

// Envelope is the decoded form of a stored game, opaque to service_test.
type Envelope = envelope

// Decode and Encode expose the codec to the benchmarks.
func Decode(b []byte) (*Envelope, error) { return decode(b) }
func Encode(e *Envelope) ([]byte, error) { return encode(e) }

// CodecDict is the preset dictionary of the stored format.
var CodecDict = codecDict

// Waiting returns how many writes of the game wait behind the one in flight (with
// local locks), so that a test can queue a whole batch before it lets that write
// land.
func (s *Service) Waiting(code string) int {
	s.queueMu.Lock()
	defer s.queueMu.Unlock()
	return len(s.queues[code])
}

// Writing returns how many games have a write in flight (with local locks): a
// game's queue is gone once its writes are done.
func (s *Service) Writing() int {
	s.queueMu.Lock()
	defer s.queueMu.Unlock()
	return len(s.queues)
}
