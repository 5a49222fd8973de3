import RollboardAnimation
package import RollboardCore

extension CarouselOptions {
    init?(reader: YAMLMappingReader) {
        guard let nodes = reader.requireNonEmpty("slides", listing: "slide", reader.sequence) else { return nil }
        var slides: [CarouselSlide] = []
        for (index, node) in nodes.enumerated() {
            let field = "slides[\(index)]"
            guard let slide = YAMLMappingReader(node, context: reader.context, field: field, problems: reader.problems)
            else { return nil }
            slide.rejectUnknownKeys(allowed: ["image", "text"])
            switch (slide.string("image"), slide.string("text")) {
            case (let image?, nil):
                guard !image.isEmpty, !image.split(separator: "/").contains("..") else {
                    slide.report("image", "must be a path under public/ without '..', got \"\(image)\"")
                    return nil
                }
                slides.append(.image(image))
            case (nil, let text?):
                if let problem = DisplayText.text.problem(with: text) {
                    slide.report("text", problem)
                    return nil
                }
                slides.append(.text(text))
            case (.some, .some):
                reader.report(field, "give either image or text, not both")
                return nil
            case (nil, nil):
                reader.report(field, "needs an image or a text")
                return nil
            }
        }
        let interval = reader.double("interval", in: 0.5...3_600)
        if reader.node("interval") != nil && interval == nil { return nil }
        self.init(slides: slides, interval: interval ?? CarouselConfiguration.defaultInterval)
        for key in ["dotColor", "activeDotColor"] {
            guard let color = reader.string(key) else { continue }
            guard Self.isColor(color) else {
                reader.report(key, "must be a colour like #rgb or #rrggbb, got \"\(color)\"")
                return nil
            }
            if key == "dotColor" { dotColor = color } else { activeDotColor = color }
        }
    }
}
