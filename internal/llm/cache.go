package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// cacheLayout is the subdirectory of a cache dir that holds entries; bump it
// when the entry format or the key derivation changes.
const cacheLayout = "v1"

// Cache is the on-disk response cache: content-addressed, one file per
// entry, written atomically. Only successful responses go in it, byte for
// byte as the provider sent them (indented JSON, CRLF, escaped unicode and
// a trailing newline come back unchanged). A torn or corrupt entry reads as
// a miss and is moved aside (KEY.unreadable), for Inspect to report once.
// It is safe for concurrent use, also by several processes.
type Cache struct {
	dir string
}

// OpenCache returns the cache in dir ("" means DefaultCacheDir()). Nothing is
// created until the first Put.
func OpenCache(dir string) *Cache {
	if dir == "" {
		dir = DefaultCacheDir()
	}
	return &Cache{dir: dir}
}

// Dir is the cache directory.
func (c *Cache) Dir() string { return c.dir }

// Key is the cache key of a request: the SHA-256 of the endpoint's host and
// path, the trial index and the request as sent (model, every parameter, the
// messages, tools and response format). The API key is not an input.
func Key(endpoint string, trial int, req openai.ChatCompletionRequest) (string, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return "", fmt.Errorf("cache key: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "compact-eval cache %s\nendpoint %s\ntrial %d\n", cacheLayout, endpointID(endpoint), trial)
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// entry is one cache file. Raw holds the reply's bytes (base64 in the
// file), so that any bytes round-trip; Body is the form of earlier
// versions, a JSON value the encoder compacts, which matched its sum only
// when the reply was compact JSON already. It is still read.
type entry struct {
	Key  string          `json:"key"`
	Sum  string          `json:"sum"` // hex SHA-256 of the reply
	Raw  []byte          `json:"raw,omitempty"`
	Body json.RawMessage `json:"body,omitempty"`
}

// unreadableSuffix names an entry moved aside because it could not be read.
const unreadableSuffix = ".unreadable"

// decodeEntry reads an entry file's bytes: the reply, or why it is
// unreadable.
func decodeEntry(b []byte, key string) ([]byte, error) {
	var e entry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("not an entry: %v", err)
	}
	if e.Key != key {
		return nil, fmt.Errorf("holds key %.12s…, not its own", e.Key)
	}
	body := e.Raw
	if body == nil {
		body = e.Body
	}
	if e.Sum != sum(body) {
		return nil, errors.New("the reply does not match its checksum (torn, or written by an older version that reformatted it)")
	}
	return body, nil
}

func (c *Cache) path(key string) string {
	return filepath.Join(c.dir, cacheLayout, key[:2], key+".json")
}

func validKey(key string) bool {
	if len(key) != 64 {
		return false
	}
	_, err := hex.DecodeString(key)
	return err == nil
}

// Get returns the body stored under key, exactly as Put was given it. A
// missing, torn or corrupt entry is a miss; a corrupt one is moved aside
// (KEY.unreadable), so that the next Put writes it afresh and Inspect
// reports it once.
func (c *Cache) Get(key string) ([]byte, bool) {
	if !validKey(key) {
		return nil, false
	}
	p := c.path(key)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	body, err := decodeEntry(b, key)
	if err != nil {
		if os.Rename(p, p+unreadableSuffix) != nil {
			os.Remove(p)
		}
		return nil, false
	}
	return body, true
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Put stores body (a JSON document) under key: written to a temporary file
// in the entry's directory, then renamed into place, so a reader never sees
// half an entry.
func (c *Cache) Put(key string, body []byte) error {
	if !validKey(key) {
		return fmt.Errorf("cache put: invalid key")
	}
	if !json.Valid(body) {
		return fmt.Errorf("cache put: body is not JSON")
	}
	b, err := json.Marshal(entry{Key: key, Sum: sum(body), Raw: body})
	if err != nil {
		return fmt.Errorf("cache put: %w", err)
	}
	p := c.path(key)
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cache put: %w", err)
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("cache put: %w", err)
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), p)
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cache put: %w", werr)
	}
	return nil
}

// isEntryName reports whether name is an entry file, an entry moved aside
// as unreadable, or a leftover temporary file of this cache.
func isEntryName(name string) bool {
	if strings.HasPrefix(name, ".tmp-") {
		return true
	}
	name = strings.TrimSuffix(name, unreadableSuffix)
	k, ok := strings.CutSuffix(name, ".json")
	return ok && validKey(k)
}

// CacheStats is what Inspect finds in a cache.
type CacheStats struct {
	// Entries and Bytes count the readable entries and their size.
	Entries int
	Bytes   int64
	// Unreadable are the entries that could not be read, "KEY: why",
	// whether a run moved them aside or Inspect found them. Inspect
	// removes them once reported: their requests are sent again.
	Unreadable []string
}

// Inspect reads every entry of the cache in dir ("" means
// DefaultCacheDir()): it counts the readable ones and reports, once, each
// that cannot be read (torn, damaged, or written by a version that
// reformatted the reply), removing it so that the next run fetches and
// stores it again. A cache that does not exist yet is empty.
func Inspect(dir string) (CacheStats, error) {
	if dir == "" {
		dir = DefaultCacheDir()
	}
	var st CacheStats
	root := filepath.Join(dir, cacheLayout)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == root {
				return fs.SkipAll
			}
			return err
		}
		name := d.Name()
		if d.IsDir() || !isEntryName(name) || strings.HasPrefix(name, ".tmp-") {
			return nil
		}
		key := strings.TrimSuffix(strings.TrimSuffix(name, unreadableSuffix), ".json")
		b, rerr := os.ReadFile(p)
		if errors.Is(rerr, fs.ErrNotExist) {
			return nil // removed meanwhile
		}
		why := ""
		switch {
		case rerr != nil:
			why = rerr.Error()
		case strings.HasSuffix(name, unreadableSuffix):
			_, derr := decodeEntry(b, key)
			why = "moved aside by a run"
			if derr != nil {
				why = derr.Error()
			}
		default:
			if _, derr := decodeEntry(b, key); derr != nil {
				why = derr.Error()
			}
		}
		if why == "" {
			st.Entries++
			st.Bytes += int64(len(b))
			return nil
		}
		st.Unreadable = append(st.Unreadable, key+": "+why)
		os.Remove(p)
		return nil
	})
	if err != nil {
		return CacheStats{}, fmt.Errorf("cache stats %s: %w", dir, err)
	}
	return st, nil
}

// Stats counts the entries of the cache in dir ("" means DefaultCacheDir())
// and their size in bytes. A cache that does not exist yet is empty.
func Stats(dir string) (entries int, bytes int64, err error) {
	if dir == "" {
		dir = DefaultCacheDir()
	}
	root := filepath.Join(dir, cacheLayout)
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == root {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() || !isEntryName(d.Name()) || strings.HasPrefix(d.Name(), ".tmp-") || strings.HasSuffix(d.Name(), unreadableSuffix) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		entries++
		bytes += info.Size()
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("cache stats %s: %w", dir, err)
	}
	return entries, bytes, nil
}

// Clear removes every entry of the cache in dir ("" means
// DefaultCacheDir()). It removes only files this cache wrote (entries and
// temporary files in its layout) and the directories they leave empty, so a
// mistaken dir loses nothing else.
func Clear(dir string) error {
	if dir == "" {
		dir = DefaultCacheDir()
	}
	root := filepath.Join(dir, cacheLayout)
	shards, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cache clear: %w", err)
	}
	var errs []error
	for _, s := range shards {
		if !s.IsDir() || len(s.Name()) != 2 {
			continue
		}
		if _, err := strconv.ParseUint(s.Name(), 16, 8); err != nil {
			continue
		}
		sd := filepath.Join(root, s.Name())
		files, err := os.ReadDir(sd)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, f := range files {
			if f.Type().IsRegular() && isEntryName(f.Name()) {
				if err := os.Remove(filepath.Join(sd, f.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
					errs = append(errs, err)
				}
			}
		}
		os.Remove(sd) // only succeeds when empty
	}
	os.Remove(root)
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("cache clear: %w", err)
	}
	return nil
}
