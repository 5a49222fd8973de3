import RollboardAnimation

print("benchmark placeholder")
