package baseline

import "github.com/editaudit/editaudit/pixeldiff"

type pixeldiffSig = pixeldiff.PageSig
