from maguyva.cli import main

main()
