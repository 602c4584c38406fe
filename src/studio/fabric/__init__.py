"""The Fabric's queue plane: work items ordered from capabilities, leased by workers within
their scope, gated on both sides of the port, and filed to their subject when they close."""
