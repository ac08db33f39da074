package main

import "github.com/urfave/cli/v2"

// corpusSynthCommand is `editaudit corpus synth`: the synth command under
// corpus, where test documents were made before synth was a command of
// its own. Same flags, same behaviour.
func corpusSynthCommand() *cli.Command {
	return synthCommand()
}
