// Package suggest finds the invariants a recorded session suggests: it
// reads the session's events one at a time (Scanner.Add, with the event's
// role, kind, text and a call's tool and arguments) and keeps bounded
// lists of candidates: rules (Constraints), corrections (Corrections),
// refuted hypotheses (Refuted), key-like tokens (Secrets), quantities no
// later correction replaced (Quantities) and groups of near-twin paths
// (ArtifactGroups, Required). HoldsEvidence tells whether a sentence holds
// any of that evidence.
//
// It knows nothing of log formats or of YAML: package importer feeds it
// the events it parses and writes the suggestions as comments of the
// scenario skeleton. The rules and their measured precision are in
// docs/import.md.
package suggest
