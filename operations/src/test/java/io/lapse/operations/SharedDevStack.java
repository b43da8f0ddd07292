package io.lapse.operations;

import io.lapse.devstack.DevStack;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** One Kafka broker and one Redis for every test class of the run: each class keeps to topics and keys of its own. */
final class SharedDevStack implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == DevStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.create(SharedDevStack.class))
                .getOrComputeIfAbsent(DevStack.class, type -> DevStack.start(), DevStack.class);
    }
}
