package memstore

import (
	"encoding/binary"
	"strings"
	"sync"

	"github.com/regelkit/regelkit/sparql/graph"
)

// dict maps RDF terms to dense uint32 ids and back. Id 0 means "no term".
// Terms are stored once as compact encoded strings (kind byte, datatype
// number, language, value) so that the map key and the id table share the
// same bytes. The dictionary only grows: a snapshot remembers how many ids
// it may use, so readers never see ids added after their snapshot.
type dict struct {
	mu     sync.RWMutex
	ids    map[string]uint32
	terms  []string // id -> encoded term; terms[0] unused
	dtIDs  map[string]uint32
	dtIRIs []string
}

func newDict() *dict {
	d := &dict{ids: map[string]uint32{}, terms: []string{""}, dtIDs: map[string]uint32{}}
	for _, dt := range []string{graph.XSDString, graph.RDFLangStr, graph.XSDInteger, graph.XSDDecimal, graph.XSDDouble, graph.XSDBoolean, graph.XSDDateTime, graph.XSDDate} {
		d.dtIDs[dt] = uint32(len(d.dtIRIs))
		d.dtIRIs = append(d.dtIRIs, dt)
	}
	return d
}

const (
	encIRI    = 'I'
	encBlank  = 'B'
	encString = 'S' // xsd:string
	encLang   = 'L' // lang \x00 value
	encTyped  = 'T' // uvarint datatype number, value
)

// encodeKey returns the encoded form of t; ok is false when t uses a
// datatype the dictionary does not know (then t is not in the dictionary).
// Callers hold at least the read lock.
func (d *dict) encodeKey(t graph.Term, buf []byte) ([]byte, bool) {
	buf = buf[:0]
	switch t.Kind {
	case graph.KindIRI:
		buf = append(buf, encIRI)
	case graph.KindBlank:
		buf = append(buf, encBlank)
	case graph.KindLiteral:
		switch {
		case t.Lang != "":
			buf = append(buf, encLang)
			buf = append(buf, t.Lang...)
			buf = append(buf, 0)
		case t.Datatype == graph.XSDString || t.Datatype == "":
			buf = append(buf, encString)
		default:
			dt, ok := d.dtIDs[t.Datatype]
			if !ok {
				return buf, false
			}
			buf = append(buf, encTyped)
			buf = binary.AppendUvarint(buf, uint64(dt))
		}
	default:
		return buf, false
	}
	buf = append(buf, t.Value...)
	return buf, true
}

// lookup returns the id of t, or 0.
func (d *dict) lookup(t graph.Term) uint32 {
	var arr [64]byte
	d.mu.RLock()
	defer d.mu.RUnlock()
	key, ok := d.encodeKey(t, arr[:0])
	if !ok {
		return 0
	}
	return d.ids[string(key)]
}

// intern returns the id of t, adding it when new. The caller must be the
// single writer (it holds the store's write lock).
func (d *dict) intern(t graph.Term) uint32 {
	var arr [64]byte
	d.mu.RLock()
	key, ok := d.encodeKey(t, arr[:0])
	if ok {
		if id, found := d.ids[string(key)]; found {
			d.mu.RUnlock()
			return id
		}
	}
	d.mu.RUnlock()
	d.mu.Lock()
	defer d.mu.Unlock()
	if !ok {
		d.dtIDs[t.Datatype] = uint32(len(d.dtIRIs))
		d.dtIRIs = append(d.dtIRIs, t.Datatype)
		key, _ = d.encodeKey(t, arr[:0])
	}
	s := string(key)
	if id, found := d.ids[s]; found {
		return id
	}
	id := uint32(len(d.terms))
	d.terms = append(d.terms, s)
	d.ids[s] = id
	return id
}

// view returns the tables a snapshot reads ids through.
func (d *dict) view() dictView {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return dictView{terms: d.terms, dts: d.dtIRIs}
}

// dictView is an immutable prefix of the dictionary.
type dictView struct {
	terms []string
	dts   []string
}

func (v dictView) term(id uint32) graph.Term {
	if id == 0 || int(id) >= len(v.terms) {
		return graph.Term{}
	}
	return decodeTerm(v.terms[id], v.dts)
}

func decodeTerm(s string, dts []string) graph.Term {
	switch s[0] {
	case encIRI:
		return graph.Term{Kind: graph.KindIRI, Value: s[1:]}
	case encBlank:
		return graph.Term{Kind: graph.KindBlank, Value: s[1:]}
	case encString:
		return graph.Term{Kind: graph.KindLiteral, Value: s[1:], Datatype: graph.XSDString}
	case encLang:
		i := strings.IndexByte(s, 0)
		return graph.Term{Kind: graph.KindLiteral, Value: s[i+1:], Datatype: graph.RDFLangStr, Lang: s[1:i]}
	default:
		dt, n := uvarintString(s[1:])
		return graph.Term{Kind: graph.KindLiteral, Value: s[1+n:], Datatype: dts[dt]}
	}
}

// kindOf returns the term kind of an encoded id without decoding it.
func (v dictView) kindOf(id uint32) graph.Kind {
	if id == 0 || int(id) >= len(v.terms) {
		return graph.KindNone
	}
	switch v.terms[id][0] {
	case encIRI:
		return graph.KindIRI
	case encBlank:
		return graph.KindBlank
	}
	return graph.KindLiteral
}

func uvarintString(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < 10; i++ {
		b := s[i]
		if b < 0x80 {
			return x | uint64(b)<<shift, i + 1
		}
		x |= uint64(b&0x7f) << shift
		shift += 7
	}
	return x, len(s)
}
