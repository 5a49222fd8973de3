import RollboardNet

print("echo server placeholder")
