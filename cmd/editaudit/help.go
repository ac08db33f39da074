package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// helpCommand is `editaudit help [COMMAND [SUBCOMMAND]]`: the --help of
// any command, nested ones included ("help corpus run").
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "what a command does, its flags and examples",
		ArgsUsage: "[COMMAND [SUBCOMMAND]]",
		Action: func(c *cli.Context) error {
			path := c.Args().Slice()
			cmds := commands()
			for i, name := range path {
				cmd := findCommand(cmds, name)
				if cmd == nil {
					return usageErr("no help topic %q (commands: %s)", strings.Join(path[:i+1], " "), commandNames(cmds))
				}
				cmds = cmd.Subcommands
			}
			args := append([]string{c.App.Name}, path...)
			return newApp(c.App.Writer, c.App.ErrWriter).RunContext(c.Context, append(args, "--help"))
		},
	}
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

func commandNames(cmds []*cli.Command) string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}
