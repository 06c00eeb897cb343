package wiring_test

import (
	"fmt"

	"github.com/procedures-go/procedures/internal/wiring"
)

func ExampleHooksJSON() {
	fmt.Print(string(wiring.HooksJSON(func(c string) string {
		return `set -- "${CLAUDE_PLUGIN_ROOT}/bin/procedures" ` + c + `; . "$1"`
	})))
	// Output:
	// {
	//   "hooks": {
	//     "UserPromptSubmit": [
	//       {
	//         "hooks": [
	//           {
	//             "type": "command",
	//             "command": "set -- \"${CLAUDE_PLUGIN_ROOT}/bin/procedures\" turn-state-reset; . \"$1\""
	//           }
	//         ]
	//       }
	//     ],
	//     "PreToolUse": [
	//       {
	//         "hooks": [
	//           {
	//             "type": "command",
	//             "command": "set -- \"${CLAUDE_PLUGIN_ROOT}/bin/procedures\" how-do-i-gate; . \"$1\""
	//           }
	//         ]
	//       }
	//     ],
	//     "PostToolUse": [
	//       {
	//         "matcher": "Skill",
	//         "hooks": [
	//           {
	//             "type": "command",
	//             "command": "set -- \"${CLAUDE_PLUGIN_ROOT}/bin/procedures\" turn-state-record; . \"$1\""
	//           },
	//           {
	//             "type": "command",
	//             "command": "set -- \"${CLAUDE_PLUGIN_ROOT}/bin/procedures\" digest-record; . \"$1\""
	//           }
	//         ]
	//       },
	//       {
	//         "matcher": "Write|Edit|MultiEdit",
	//         "hooks": [
	//           {
	//             "type": "command",
	//             "command": "set -- \"${CLAUDE_PLUGIN_ROOT}/bin/procedures\" enforce-frontmatter; . \"$1\""
	//           }
	//         ]
	//       }
	//     ],
	//     "Stop": [
	//       {
	//         "hooks": [
	//           {
	//             "type": "command",
	//             "command": "set -- \"${CLAUDE_PLUGIN_ROOT}/bin/procedures\" am-i-done-gate; . \"$1\""
	//           }
	//         ]
	//       }
	//     ]
	//   }
	// }
}

func ExamplePluginJSON() {
	fmt.Print(string(wiring.PluginJSON("procedures", "v0.1.0", "Procedural knowledge for agents.")))
	// Output:
	// {
	//   "name": "procedures",
	//   "version": "v0.1.0",
	//   "description": "Procedural knowledge for agents.",
	//   "userConfig": {
	//     "enable_how_do_i_gate": {
	//       "type": "boolean",
	//       "title": "Enable the how-do-i gate",
	//       "description": "Require Skill(how-do-i) before a main agent acts. Set false to turn this gate off; also settable per-invocation as PROCEDURES_ENABLE_HOW_DO_I_GATE=false.",
	//       "default": true
	//     },
	//     "enable_am_i_done_gate": {
	//       "type": "boolean",
	//       "title": "Enable the am-i-done gate",
	//       "description": "Require one Skill(am-i-done) review before a turn that used tools ends. Set false to turn this gate off; also settable per-invocation as PROCEDURES_ENABLE_AM_I_DONE_GATE=false.",
	//       "default": true
	//     },
	//     "enable_frontmatter_check": {
	//       "type": "boolean",
	//       "title": "Enable the frontmatter check",
	//       "description": "Require the six-key frontmatter schema on records written into a knowledge store. Set false to turn this check off; also settable per-invocation as PROCEDURES_ENABLE_FRONTMATTER_CHECK=false.",
	//       "default": true
	//     }
	//   }
	// }
}
