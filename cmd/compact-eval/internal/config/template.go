package config

// Template is the compact-eval.yaml that `compact-eval init` writes: one
// named summarizer (builtin:extractive, to be replaced by the user's) and
// the constraint gate, commented for a first-time reader. The gate holds
// for builtin:extractive on the built-in suite, so the workflow's first run
// on main passes and writes the baseline. TemplateScenarios is the line
// init uncomments when the folder holds a scenarios/ folder.
const Template = `# compact-eval.yaml: what ` + "`compact-eval run`" + ` evaluates, and the gates it applies.
# Flags given on the command line win over this file. Every key, with an
# example: compact-eval help config. For an editor that validates as you
# type: compact-eval schema config > config.schema.json, and on the first
# line: # yaml-language-server: $schema=./config.schema.json
version: 1

# The summarizers under test. A baseline pairs summarizers by name, so give
# yours a stable name and change its spec freely. builtin:extractive is a
# rule-based stand-in: replace it with yours, for example
#   spec: exec:python3 compact.py     (your program: JSON on stdin and stdout)
#   spec: openai:gpt-4o-mini          (OPENAI_API_KEY and OPENAI_BASE_URL)
summarizers:
  - name: ours
    spec: builtin:extractive

# The scenarios: files or folders, relative to this file. Without this key
# the built-in suite runs.
` + TemplateScenariosOff + `

gates:
  # Minimum pass rates per check type and summarizer: here every constraint
  # must survive compaction. Add more, such as decisions: 0.9 or all: "90%".
  # The baseline gate (no regression against main) is asked for by the
  # workflow, with --baseline.
  min_pass: {constraint: 1}
`

// TemplateScenariosOff and TemplateScenariosOn are Template's scenarios
// line, commented and not.
const (
	TemplateScenariosOff = "# scenarios: [scenarios/]"
	TemplateScenariosOn  = "scenarios: [scenarios/]"
)
