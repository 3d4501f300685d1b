import Foundation

exit(await NotesApp.main(arguments: Array(CommandLine.arguments.dropFirst())))
