package graph

import (
	"encoding/binary"
	"hash/maphash"
	"strings"
)

// dictionary maps Terms to dense uint32 ids and back. Each term is stored
// once, encoded in a string carved out of a shared arena:
//
//	'I' iri | 'B' label | 'S' lexical (xsd:string)
//	'L' uvarint(len(lang)) lang lexical (rdf:langString)
//	'T' datatype-id (4 bytes, little endian) lexical (other datatypes)
//
// Decoding a term therefore allocates nothing. The id lookup is an
// open-addressing hash table whose slots hold an id together with 32 bits of
// the term's hash, so probing rarely touches the terms themselves and the
// table can grow without rehashing strings. Terms are never removed.
type dictionary struct {
	seed  maphash.Seed
	table []uint64 // 0 = empty, else hash<<32 | id+1
	enc   []string
	arena strings.Builder
}

const arenaChunk = 32 << 10

func (d *dictionary) hash(t Term) uint32 {
	h := maphash.String(d.seed, t.Value)
	h ^= uint64(t.Kind) * 0x9E3779B97F4A7C15
	if t.Kind == KindLiteral {
		if t.Lang != "" {
			h ^= maphash.String(d.seed, t.Lang) * 0xC2B2AE3D27D4EB4F
		} else if t.Datatype != XSDString {
			h ^= maphash.String(d.seed, t.Datatype) * 0x165667B19E3779F9
		}
	}
	return uint32(h >> 32)
}

// lookup returns the id of t.
func (d *dictionary) lookup(t Term) (uint32, bool) {
	if len(d.table) == 0 || t.Kind == KindNone {
		return 0, false
	}
	id, ok, _ := d.find(t)
	return id, ok
}

// find probes for t; it also returns the probe hash for insertion.
func (d *dictionary) find(t Term) (uint32, bool, uint32) {
	h32 := d.hash(t)
	mask := uint32(len(d.table) - 1)
	for i := h32 & mask; ; i = (i + 1) & mask {
		s := d.table[i]
		if s == 0 {
			return 0, false, h32
		}
		if uint32(s>>32) == h32 {
			if id := uint32(s) - 1; d.equal(id, t) {
				return id, true, h32
			}
		}
	}
}

// intern returns the id of t, adding t when absent. t must not be zero.
func (d *dictionary) intern(t Term) uint32 {
	if len(d.table) == 0 {
		d.seed = maphash.MakeSeed()
		d.table = make([]uint64, 64)
	}
	id, ok, h32 := d.find(t)
	if ok {
		return id
	}
	var dt uint32
	if t.Kind == KindLiteral && t.Lang == "" && t.Datatype != XSDString {
		dt = d.intern(IRI(t.Datatype))
	}
	id = uint32(len(d.enc))
	d.enc = append(d.enc, d.encode(t, dt))
	d.place(uint64(h32)<<32 | uint64(id+1))
	if len(d.enc)*4 >= len(d.table)*3 {
		d.grow()
	}
	return id
}

func (d *dictionary) place(slot uint64) {
	mask := uint32(len(d.table) - 1)
	for i := uint32(slot>>32) & mask; ; i = (i + 1) & mask {
		if d.table[i] == 0 {
			d.table[i] = slot
			return
		}
	}
}

func (d *dictionary) grow() {
	old := d.table
	d.table = make([]uint64, 2*len(old))
	for _, s := range old {
		if s != 0 {
			d.place(s)
		}
	}
}

// equal reports whether the stored term id is t.
func (d *dictionary) equal(id uint32, t Term) bool {
	e := d.enc[id]
	switch t.Kind {
	case KindIRI:
		return e[0] == 'I' && e[1:] == t.Value
	case KindBlank:
		return e[0] == 'B' && e[1:] == t.Value
	case KindLiteral:
		switch {
		case t.Lang != "":
			if e[0] != 'L' {
				return false
			}
			n, w := uvarintString(e[1:])
			return e[1+w:1+w+n] == t.Lang && e[1+w+n:] == t.Value
		case t.Datatype == XSDString:
			return e[0] == 'S' && e[1:] == t.Value
		default:
			if e[0] != 'T' || e[5:] != t.Value {
				return false
			}
			return d.enc[le32(e[1:5])][1:] == t.Datatype
		}
	}
	return false
}

func (d *dictionary) encode(t Term, dt uint32) string {
	var head [binary.MaxVarintLen64 + 1]byte
	var n int
	switch t.Kind {
	case KindIRI:
		head[0], n = 'I', 1
	case KindBlank:
		head[0], n = 'B', 1
	default:
		switch {
		case t.Lang != "":
			head[0] = 'L'
			n = 1 + binary.PutUvarint(head[1:], uint64(len(t.Lang)))
		case t.Datatype == XSDString:
			head[0], n = 'S', 1
		default:
			head[0] = 'T'
			binary.LittleEndian.PutUint32(head[1:], dt)
			n = 5
		}
	}
	size := n + len(t.Lang) + len(t.Value)
	if d.arena.Cap()-d.arena.Len() < size {
		if size > arenaChunk/4 {
			var b strings.Builder
			b.Grow(size)
			b.Write(head[:n])
			b.WriteString(t.Lang)
			b.WriteString(t.Value)
			return b.String()
		}
		d.arena = strings.Builder{}
		d.arena.Grow(arenaChunk)
	}
	start := d.arena.Len()
	d.arena.Write(head[:n])
	d.arena.WriteString(t.Lang)
	d.arena.WriteString(t.Value)
	return d.arena.String()[start:]
}

// term decodes the term with the given id.
func (d *dictionary) term(id uint32) Term {
	e := d.enc[id]
	switch e[0] {
	case 'I':
		return Term{Kind: KindIRI, Value: e[1:]}
	case 'B':
		return Term{Kind: KindBlank, Value: e[1:]}
	case 'S':
		return Term{Kind: KindLiteral, Value: e[1:], Datatype: XSDString}
	case 'L':
		n, w := uvarintString(e[1:])
		return Term{Kind: KindLiteral, Value: e[1+w+n:], Datatype: RDFLangStr, Lang: e[1+w : 1+w+n]}
	default:
		return Term{Kind: KindLiteral, Value: e[5:], Datatype: d.enc[le32(e[1:5])][1:]}
	}
}

func uvarintString(s string) (n, w int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			return int(x | uint64(c)<<shift), i + 1
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

func le32(s string) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}
