from orkestra.entry import main

main()
