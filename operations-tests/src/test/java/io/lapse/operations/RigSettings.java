package io.lapse.operations;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Settings ({@code key=value}) a test class's {@link OnCallRig} runs with, over the rig's own. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RigSettings {
    String[] value();
}
