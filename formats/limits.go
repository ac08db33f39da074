package formats

import "errors"

// Limits bound the resources spent on one document. Every read of a zip
// entry goes through them, so hostile input ends in a finding in bounded
// time and memory instead of exhausting the machine. archive/zip itself
// does not guard against zip bombs.
type Limits struct {
	// MaxFileSize is the largest input file read (bytes).
	MaxFileSize int64
	// MaxEntries is the largest number of zip entries accepted.
	MaxEntries int
	// MaxEntrySize is the largest uncompressed size of one entry (bytes).
	MaxEntrySize int64
	// MaxTotalSize is the largest sum of uncompressed entry sizes (bytes).
	MaxTotalSize int64
	// MaxRatio is the largest uncompressed/compressed ratio accepted for an
	// entry bigger than RatioFloor bytes.
	MaxRatio int64
	// RatioFloor: entries smaller than this are never refused for their ratio
	// (a kilobyte of zeros legitimately compresses 1000:1).
	RatioFloor int64
	// MaxDepth is the deepest XML element nesting accepted.
	MaxDepth int
	// MaxTokenSize is the longest XML token (a text node, a tag with its
	// attributes) accepted, in bytes.
	MaxTokenSize int
	// MaxFindingsPerCode caps the findings of one code in one part; the
	// rest are summarised in one xml.too-many-findings finding.
	MaxFindingsPerCode int
}

// DefaultLimits are generous for real documents (the largest real part in
// the test corpus is a few MiB) and small enough to run thousands of
// documents a night on a 2-core machine.
func DefaultLimits() Limits {
	return Limits{
		MaxFileSize:        512 << 20,
		MaxEntries:         20000,
		MaxEntrySize:       256 << 20,
		MaxTotalSize:       1 << 30,
		MaxRatio:           200,
		RatioFloor:         1 << 20,
		MaxDepth:           256,
		MaxTokenSize:       16 << 20,
		MaxFindingsPerCode: 50,
	}
}

// Sentinel errors for limits, returned by reads that hit them (and turned
// into zip.limit / xml.* findings by the inspectors).
var (
	ErrEntryTooLarge = errors.New("formats: zip entry exceeds the size limit")
	ErrTotalTooLarge = errors.New("formats: package exceeds the total size limit")
	ErrRatio         = errors.New("formats: zip entry exceeds the compression ratio limit")
	ErrTooDeep       = errors.New("formats: XML nesting exceeds the depth limit")
	ErrTokenTooLarge = errors.New("formats: XML token exceeds the size limit")
	ErrFileTooLarge  = errors.New("formats: file exceeds the size limit")
)
