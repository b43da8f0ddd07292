package io.lapse.event;

/** An event that can tell whether it keeps the contract's rules once decoded. */
public interface Validated {
    /** @throws InvalidRecordException naming the first rule the event breaks */
    void validate();
}
