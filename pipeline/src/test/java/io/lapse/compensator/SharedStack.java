package io.lapse.compensator;

import io.lapse.devstack.DevStack;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands the test classes one Kafka broker and Redis for the whole run: starting them costs seconds, more on a busy
 * machine. Every test isolates itself by names of its own; the root store closes the stack when the run ends.
 */
final class SharedStack implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == DevStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot()
                .getStore(ExtensionContext.Namespace.create(SharedStack.class))
                .getOrComputeIfAbsent(DevStack.class, type -> DevStack.start(), DevStack.class);
    }
}
