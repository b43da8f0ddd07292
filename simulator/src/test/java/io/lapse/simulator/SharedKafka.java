package io.lapse.simulator;

import io.lapse.config.KafkaSettings;
import io.lapse.config.TopicNames;
import io.lapse.devstack.KafkaBroker;
import io.lapse.kafka.KafkaClients;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands test classes one real broker for the whole run: starting one costs seconds. The root store closes it
 * when the run ends.
 */
final class SharedKafka implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == KafkaBroker.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot()
                .getStore(ExtensionContext.Namespace.create(SharedKafka.class))
                .getOrComputeIfAbsent(KafkaBroker.class, type -> KafkaBroker.start(), KafkaBroker.class);
    }

    static KafkaClients clients(KafkaBroker broker) {
        return new KafkaClients(new KafkaSettings(
                Map.of("bootstrap.servers", broker.bootstrapServers()), TopicNames.defaults(), true, 3, -1, ""));
    }
}
