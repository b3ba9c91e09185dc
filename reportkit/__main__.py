from reportkit.cli import main

main()
