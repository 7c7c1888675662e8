((text) @injection.content
 (#set! injection.language "html")
 (#set! injection.combined))
