package io.lapse.operations;

import io.lapse.devstack.DevStack;
import io.lapse.devstack.DevStackExtension;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands each test class an {@link OnCallRig} of its own, on the JVM's shared Kafka broker and Redis
 * ({@link DevStackExtension#shared}). JUnit closes the rig after its class and the devstack after the run.
 */
public final class RigPerClass implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RigPerClass.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == OnCallRig.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        DevStack stack = DevStackExtension.shared(context);
        RigSettings settings = context.getRequiredTestClass().getAnnotation(RigSettings.class);
        Map<String, String> overrides = new HashMap<>();
        for (String setting : settings == null ? new String[0] : settings.value()) {
            String[] keyAndValue = setting.split("=", 2);
            overrides.put(keyAndValue[0], keyAndValue[1]);
        }
        return context.getStore(NAMESPACE)
                .getOrComputeIfAbsent(OnCallRig.class, type -> new OnCallRig(stack, overrides), OnCallRig.class);
    }
}
