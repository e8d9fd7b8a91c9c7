package httpapi

import (
	"bytes"
	"encoding/binary"
	"net/http"
)

// Padding against length leaks. Through TLS, anyone on the table's Wi-Fi sees
// how long each phone's answers are, and a player's view holds what the card
// lets its holder know (black teammates, tonight's shots, checks), so its bare
// length tells the card. Every player's view of a revision is therefore sent
// at one length, whoever holds it, as DNS over TLS pads to blocks (RFC 8467's
// block-length policy): the longest view any seat has of that revision, plus
// a share of the revision's noise (service.Table), rounded up to a block.
//
// The length is the same for every seat, so it tells nothing of whose answer
// it is. The noise is for how it moves: the longest view is most often a
// black player's, which grows when a teammate shoots, so rounded up alone the
// common length would step up just after a black player's tap more often
// than after anyone else's. With a fresh share at every revision it moves at
// every tap alike, by up to a block, and a shot's few bytes drown in that. A
// gzipped answer is padded after compression, since equal plaintexts do not
// compress to equal lengths.
const (
	// plainBlock is the block a player's view sent as it is is padded to.
	plainBlock = 512
	// gzipBlock is the block a player's gzipped view is padded to.
	gzipBlock = 256
)

// writeSeatView sends own, a player's answer, padded to the length of every
// seat's answer of its revision: seats are those answers as the padding
// reckons them, the player's own among them, and noise the revision's
// (service.Table). Where an answer holds a secret of its own seat (a join's
// token), seats has a stand-in of the same length in every seat's answer and
// own the real one; secret is its length, and a gzipped answer leaves room
// for it to compress worse than the stand-in (two bytes a character: no
// literal's code is longer than 15 bits), so that the room, not the secret,
// decides the length. The decision to compress is taken on the padded
// length, so it is the same for every seat too, and a gzipped answer
// inflates to the padded JSON that is sent otherwise.
func writeSeatView(w http.ResponseWriter, r *http.Request, status int, seats [][]byte, own []byte, secret int, noise uint64) {
	w.Header().Add("Vary", "Accept-Encoding")
	plainNoise, gzipNoise := int(noise%plainBlock), int(noise/plainBlock%gzipBlock)
	size := roundUp(longest(seats)+plainNoise, plainBlock)
	if !compresses(r, size) {
		writeRaw(w, status, "application/json", padSpaces(own, size))
		return
	}
	zs := make([][]byte, len(seats))
	for i, s := range seats {
		zs[i] = gzipped(padSpaces(s, size))
	}
	z := gzipped(padSpaces(own, size))
	n := roundUp(longest(zs)+2*secret+gzipPadMin+gzipNoise, gzipBlock)
	// The room above is more than a secret can take; were it not, the answer
	// still goes whole.
	n = max(n, roundUp(len(z)+gzipPadMin, gzipBlock))
	writeGzip(w, status, padGzip(z, n))
}

// longest is the length of the longest of bs.
func longest(bs [][]byte) int {
	n := 0
	for _, b := range bs {
		n = max(n, len(b))
	}
	return n
}

// roundUp is n rounded up to a multiple of block.
func roundUp(n, block int) int { return (n + block - 1) / block * block }

// padSpaces is data followed by spaces up to n bytes (n ≥ len(data)): JSON
// allows whitespace after a value, and every parser skips it.
func padSpaces(data []byte, n int) []byte {
	return append(data[:len(data):len(data)], bytes.Repeat([]byte{' '}, n-len(data))...)
}

// gzipPadMin is the least padGzip adds: an extra field holds at least its
// own 2-byte length and one subfield's 2-byte id and 2-byte length.
const gzipPadMin = 6

// padGzip is the gzip member z, as gzipped makes it, made n bytes long
// (n ≥ len(z)+gzipPadMin) by an extra field in its header (RFC 1952's
// FEXTRA): one subfield "PD" of zeros, which decoders skip (Go's
// compress/gzip, zlib, the browsers' own header parsers). Not a comment:
// Go's reader refuses one over 511 bytes. z's header is the 10 fixed bytes
// with no optional field, so the extra field goes straight after them.
func padGzip(z []byte, n int) []byte {
	const header, fextra = 10, 1 << 2
	xlen := n - len(z) - 2
	out := make([]byte, 0, n)
	out = append(out, z[:header]...)
	out[3] |= fextra
	out = binary.LittleEndian.AppendUint16(out, uint16(xlen))
	out = append(out, 'P', 'D')
	out = binary.LittleEndian.AppendUint16(out, uint16(xlen-4))
	out = append(out, make([]byte, xlen-4)...)
	return append(out, z[header:]...)
}
