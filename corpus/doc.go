// Package corpus runs audits in bulk over many edit pairs (a manifest or
// two folders): the manifest formats, the run itself (workers, one shared
// baseline store and renderer, results appended as whole lines), sharding,
// resuming, merging shards, the progress counter, run.json sessions, and
// the lock that keeps two runs out of one folder.
//
// What a run leaves behind is read as data by corpus/results (records,
// summary, comparison) and drawn by reports; corpus imports both, with
// audit, baseline, pixeldiff, formats and internal/fsutil. It must not
// import synth or mutate: the runner audits whatever pairs it is given,
// and only its tests generate documents.
package corpus
