package result

import "hash/fnv"

// InShard reports whether shard i of n holds the scenario with the given
// id: its FNV-1a (32 bits) hash is i-1 modulo n. Every id is in shard 1/1.
// The runner selects a shard's units with it, and compare pairs sharded
// runs with it.
func InShard(id string, i, n int) bool {
	if n <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32()%uint32(n)) == i-1
}
