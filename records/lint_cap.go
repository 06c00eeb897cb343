package records

// MaxShownFindings is how many per-file findings the enforce-frontmatter
// hook shows (see [LintResult.WriteCapped]); a record with 100,000 dangling
// links then costs the model a few kilobytes, not megabytes.
const MaxShownFindings = 50
