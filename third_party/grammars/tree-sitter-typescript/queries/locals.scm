(required_parameter (identifier) @local.definition)
(optional_parameter (identifier) @local.definition)
