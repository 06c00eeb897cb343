package evidence

import (
	"reflect"
	"testing"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want call
	}{
		{`query-records deploy`, call{queryRecords: true}},
		{`"$P"/bin/query-records --search "how do I open a PR" --limit 10`, call{queryRecords: true}},
		{`/plugin/bin/procedures query-records --cat references/a.md references/b.md --raw`, call{queryRecords: true, catBatches: 1, catPaths: []string{"references/a.md", "references/b.md"}}},
		{`bash "/plugin/scripts/query-records.sh" --cat 'references/a.md'`, call{queryRecords: true, catBatches: 1, catPaths: []string{"references/a.md"}}},
		{`env A=1 sh -c 'cd /x && query-records foo'`, call{queryRecords: true}},
		{`bash "${CLAUDE_SKILL_DIR}/../../scripts/session-digest-read.sh" --read "$S"`, call{digestRead: true, unexpanded: true}},
		{`echo ${CLAUDE_SESSION_ID}`, call{unexpanded: true}},
		{`find references -name '*.md'`, call{other: true}},
		{`cat plans/x.md | head`, call{other: true}},
		{`ls /tmp && grep -r foo src`, call{}},
		{`echo "query-records"`, call{}},
		{`if ( ; then`, call{}},
	} {
		got := classify(tc.cmd)
		got.queries = nil // order_test.go checks them
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("classify(%q) = %+v, want %+v", tc.cmd, got, tc.want)
		}
	}
}
