package bundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/procedures-go/procedures/internal/wiring"
)

// member is one key of a JSON object, its value kept as written.
type member struct {
	Key   string
	Value json.RawMessage
}

// object is a JSON object with its keys in the order they were written.
type object []member

func (o object) get(key string) (json.RawMessage, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// set replaces key's value where it stands, or appends key.
func (o object) set(key string, v json.RawMessage) object {
	for i, m := range o {
		if m.Key == key {
			o[i].Value = v
			return o
		}
	}
	return append(o, member{key, v})
}

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(quote(m.Key))
		b.WriteByte(':')
		b.Write(m.Value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// parseObject reads data as one JSON object, keys in order. A syntax error
// names its line and column.
func parseObject(data []byte) (object, error) {
	if err := json.Unmarshal(data, new(any)); err != nil {
		// Unmarshal's syntax error has the offset in data itself (a
		// Decoder's, within the value it was decoding).
		return nil, positioned(data, err, int64(len(data)))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, positioned(data, err, dec.InputOffset())
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("line %s: not a JSON object", lineCol(data, dec.InputOffset()))
	}
	var o object
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, positioned(data, err, dec.InputOffset())
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, positioned(data, err, dec.InputOffset())
		}
		if _, dup := o.get(key); dup {
			return nil, fmt.Errorf("line %s: key %q appears twice", lineCol(data, dec.InputOffset()), key)
		}
		o = append(o, member{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, positioned(data, err, dec.InputOffset())
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("line %s: text after the JSON object", lineCol(data, dec.InputOffset()))
	}
	return o, nil
}

func positioned(data []byte, err error, off int64) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset - 1 // Offset is just after the offending byte
		if off < 0 {
			off = 0
		}
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("unexpected end of JSON input")
	}
	return fmt.Errorf("line %s: %v", lineCol(data, off), err)
}

// lineCol is "L, column C" (1-based) for byte offset off of data.
func lineCol(data []byte, off int64) string {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("%d, column %d", line, col)
}

func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// marshal is json.Marshal without HTML escaping (a command's && stays as
// written), of values that always encode.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// render writes v indented by two spaces, as the generated files are.
func render(v any) ([]byte, error) {
	compact := marshal(v)
	var b bytes.Buffer
	if err := json.Indent(&b, compact, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// MergePluginJSON updates an existing plugin.json (old) with what the
// bundle owns: its userConfig switches. A switch the file lacks is added;
// one it has keeps the operator's values (default, title, description),
// only a field it lacks is added. Every other key, the operator's own
// userConfig options included, keeps its value and its place. With no old
// file it is fresh.
func MergePluginJSON(old, fresh []byte) ([]byte, error) {
	out, _, err := mergePlugin(old, fresh, "")
	return out, err
}

// mergePlugin is MergePluginJSON that also sets "version" when version is
// not "", and returns what it kept of the operator's switch values, one
// line each.
func mergePlugin(old, fresh []byte, version string) ([]byte, []string, error) {
	if old == nil {
		return fresh, nil, nil
	}
	o, oursObj, uc, err := parseBoth(old, fresh, "userConfig")
	if err != nil {
		return nil, nil, err
	}
	var kept []string
	for _, m := range oursObj {
		theirs, ok := uc.get(m.Key)
		if !ok {
			uc = uc.set(m.Key, m.Value)
			continue
		}
		opt, err := parseObject(theirs)
		if err != nil {
			return nil, nil, fmt.Errorf("userConfig.%s: %v", m.Key, err)
		}
		mine, _ := parseObject(m.Value)
		for _, f := range mine {
			v, have := opt.get(f.Key)
			if !have {
				opt = opt.set(f.Key, f.Value)
				continue
			}
			if !jsonEqual(v, f.Value) {
				kept = append(kept, fmt.Sprintf("kept your %s %s: %s", m.Key, f.Key, compact(v)))
			}
		}
		optJSON, _ := opt.MarshalJSON()
		uc = uc.set(m.Key, optJSON)
	}
	ucJSON, _ := uc.MarshalJSON()
	o = o.set("userConfig", ucJSON)
	if version != "" {
		o = o.set("version", marshal(version))
	}
	out, err := render(o)
	return out, kept, err
}

// jsonEqual reports whether two JSON values are the same value.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return string(marshal(x)) == string(marshal(y))
}

// compact is a JSON value on one line.
func compact(v json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}

// parseBoth parses the old and the fresh file and the object each holds
// under key: the old file whole, the fresh file's object (what the bundle
// owns) and the old file's (absent or null: empty).
func parseBoth(old, fresh []byte, key string) (o, ours, theirs object, err error) {
	if o, err = parseObject(old); err != nil {
		return nil, nil, nil, err
	}
	f, err := parseObject(fresh)
	if err != nil {
		return nil, nil, nil, err
	}
	v, _ := f.get(key)
	if ours, err = parseObject(v); err != nil {
		return nil, nil, nil, err
	}
	if v, ok := o.get(key); ok && string(v) != "null" {
		if theirs, err = parseObject(v); err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %v", key, err)
		}
	}
	return o, ours, theirs, nil
}

// ours reports whether a hooks.json handler's command is one the bundle
// wires: a command through the launcher, as HookCommand writes it for one
// command name (a hook of this build or of an earlier one) or as
// OldHookCommand wrote it, or the exec form naming a hook's binary in bin/
// directly (docs/bundle.md's no-shell layout). An operator's own line that
// sources the launcher otherwise (more words, more statements) is theirs.
func ours(command string) bool {
	before, after, _ := strings.Cut(HookCommand("\x00"), "\x00")
	if name, ok := strings.CutPrefix(command, before); ok {
		name, ok = strings.CutSuffix(name, after)
		return ok && isName(name)
	}
	if strings.HasPrefix(command, OldHookCommand("")) {
		return true
	}
	name, ok := strings.CutPrefix(command, "${CLAUDE_PLUGIN_ROOT}/bin/")
	return ok && wiring.IsHook(strings.TrimSuffix(name, ".exe"))
}

// isName reports whether s is a command name: letters, digits, '-' and
// '_', at least one.
func isName(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return s != ""
}

// MergeHooksJSON updates an existing hooks.json (old) with the bundle's
// hooks (fresh): every handler the bundle wires is dropped from old (a
// matcher group left empty goes with it), and the operator's own hooks and
// keys are kept. Our events come first, in the table's order, each with our
// groups before the operator's; then the operator's other events, in
// their order. With no old file it is fresh.
//
// The bash original's hook lines (bash ${CLAUDE_PLUGIN_ROOT}/hooks/<hook>.sh,
// see [UpstreamHook]) count as the bundle's too: they are replaced, never
// kept beside ours.
func MergeHooksJSON(old, fresh []byte) ([]byte, error) {
	out, _, err := mergeHooks(old, fresh)
	return out, err
}

// mergeHooks is MergeHooksJSON that also returns the bash original's hook
// lines it replaced, as "<event>: <command>".
func mergeHooks(old, fresh []byte) ([]byte, []string, error) {
	if old == nil {
		return fresh, nil, nil
	}
	o, events, theirs, err := parseBoth(old, fresh, "hooks")
	if err != nil {
		return nil, nil, err
	}
	var replaced []string
	for _, ev := range theirs {
		var groups []json.RawMessage
		if err := json.Unmarshal(ev.Value, &groups); err != nil {
			return nil, nil, fmt.Errorf("hooks.%s: not a list of matcher groups: %v", ev.Key, err)
		}
		var kept []json.RawMessage
		for _, g := range groups {
			gObj, err := parseObject(g)
			if err != nil {
				return nil, nil, fmt.Errorf("hooks.%s: a matcher group: %v", ev.Key, err)
			}
			if hs, ok := gObj.get("hooks"); ok {
				var handlers []json.RawMessage
				if err := json.Unmarshal(hs, &handlers); err != nil {
					return nil, nil, fmt.Errorf("hooks.%s: a matcher group's hooks are not a list: %v", ev.Key, err)
				}
				var keep []json.RawMessage
				for _, h := range handlers {
					var handler struct{ Command string }
					if json.Unmarshal(h, &handler) == nil && ours(handler.Command) {
						continue
					}
					if _, ok := UpstreamHook(handler.Command); ok {
						replaced = append(replaced, ev.Key+": "+handler.Command)
						continue
					}
					keep = append(keep, h)
				}
				if len(handlers) > 0 && len(keep) == 0 {
					continue // a group of ours only
				}
				if len(keep) < len(handlers) {
					hs := marshal(keep)
					gObj = gObj.set("hooks", hs)
				}
			}
			gj, _ := gObj.MarshalJSON()
			kept = append(kept, gj)
		}
		if len(kept) == 0 {
			continue
		}
		if v, ok := events.get(ev.Key); ok {
			var mine []json.RawMessage
			json.Unmarshal(v, &mine)
			kept = append(mine, kept...)
		}
		all := marshal(kept)
		events = events.set(ev.Key, all)
	}
	evJSON, _ := events.MarshalJSON()
	out, err := render(o.set("hooks", evJSON))
	return out, replaced, err
}
