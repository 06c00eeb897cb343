package main

import "os"

func main() { os.Exit(len(os.Args) - 1) }
