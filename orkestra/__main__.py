from orkestra.cli import main

main()
