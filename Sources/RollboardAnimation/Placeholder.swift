/// Placeholder until the first real type of this module lands.
enum RollboardAnimationPlaceholder {}
