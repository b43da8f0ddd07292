package io.lapse.compensator;

import io.lapse.devstack.DevStack;
import io.lapse.devstack.DevStackExtension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands the test classes the JVM's shared Kafka broker and Redis ({@link DevStackExtension#shared}) as a parameter.
 */
final class SharedStack implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == DevStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return DevStackExtension.shared(context);
    }
}
