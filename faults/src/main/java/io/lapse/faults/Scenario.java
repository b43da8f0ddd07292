package io.lapse.faults;

/**
 * A fault under a name the command line accepts.
 *
 * @param inCi whether {@code ./mvnw verify} runs it (the rest run with {@code -Pfaults} or {@code --scenarios all})
 */
record Scenario(String name, boolean inCi, Fault fault) {}
