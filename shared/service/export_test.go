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
