// Command oracle answers kevents' protobuf questions with kube-apiserver's own code:
// k8s.io/api types, gogo-protobuf generated marshallers and the apimachinery protobuf
// serializer (the `k8s\x00` + runtime.Unknown envelope). One JSON request per line on stdin,
// one JSON answer per line on stdout:
//
//	{"type":"events/v1.Event","json":"<JSON text>"}  -> {"protobuf":"<base64 envelope>"} or {"err":"..."}
//	{"type":"events/v1.Event","decode":"<base64>"}   -> {"json":"<JSON text>"} or {"err":"..."}
//	{"watch":{"type":"ADDED","object":"<base64 envelope>","groupVersion":"v1"}}
//	                                                 -> {"protobuf":"<base64 WatchEvent envelope>"}
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/gogo/protobuf/proto"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1beta1 "k8s.io/apimachinery/pkg/apis/meta/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	watchapi "k8s.io/apimachinery/pkg/watch"
	sigsjson "sigs.k8s.io/json"
)

type watchRequest struct {
	Type         string `json:"type"`
	Object       []byte `json:"object"`
	GroupVersion string `json:"groupVersion"`
}

type request struct {
	Type   string        `json:"type"`
	JSON   *string       `json:"json"`
	Decode []byte        `json:"decode"`
	Watch  *watchRequest `json:"watch"`
}

type answer struct {
	Protobuf []byte  `json:"protobuf,omitempty"`
	JSON     *string `json:"json,omitempty"`
	Err      *string `json:"err,omitempty"`
}

// newObject makes an empty Go object of a kevents ProtobufType.
func newObject(t string) (runtime.Object, error) {
	switch t {
	case "core/v1.Event":
		return &corev1.Event{}, nil
	case "core/v1.EventList":
		return &corev1.EventList{}, nil
	case "events/v1.Event":
		return &eventsv1.Event{}, nil
	case "events/v1.EventList":
		return &eventsv1.EventList{}, nil
	case "coordination/v1.Lease":
		return &coordinationv1.Lease{}, nil
	case "coordination/v1.LeaseList":
		return &coordinationv1.LeaseList{}, nil
	case "meta/v1.Status":
		return &metav1.Status{}, nil
	case "meta/v1.DeleteOptions":
		return &metav1.DeleteOptions{}, nil
	case "meta/v1.PartialObjectMetadata":
		return &metav1.PartialObjectMetadata{}, nil
	case "meta/v1.PartialObjectMetadataList":
		return &metav1.PartialObjectMetadataList{}, nil
	case "meta/v1beta1.PartialObjectMetadataList":
		return &metav1beta1.PartialObjectMetadataList{}, nil
	case "meta/v1.WatchEvent":
		return &metav1.WatchEvent{}, nil
	}
	return nil, fmt.Errorf("unknown type %q", t)
}

var scheme = runtime.NewScheme()
var registered = map[schema.GroupVersion]bool{}
var pb = protobuf.NewSerializer(scheme, scheme)

func init() {
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, eventsv1.AddToScheme, coordinationv1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
}

// encode decodes a JSON text into the Go type (as kube's JSON decoder does: case-sensitive,
// ints kept) and encodes it with the protobuf serializer, the object's own kind and apiVersion
// in the envelope.
func encode(t, text string) ([]byte, error) {
	obj, err := newObject(t)
	if err != nil {
		return nil, err
	}
	if strictErrs, err := sigsjson.UnmarshalStrict([]byte(text), obj, sigsjson.DisallowUnknownFields); err != nil {
		return nil, err
	} else if len(strictErrs) > 0 {
		return nil, fmt.Errorf("strict: %v", strictErrs)
	}
	var buf bytes.Buffer
	if err := pb.Encode(obj, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

var prefix = []byte{0x6b, 0x38, 0x73, 0x00}

// decode reads the envelope as protobuf.Serializer.Decode does (prefix checks, runtime.Unknown,
// proto.Unmarshal of raw into the Go type), sets kind and apiVersion from the envelope's
// typeMeta and writes the object as kube's JSON serializer does (encoding/json's Encoder).
func decode(t string, data []byte) (string, error) {
	obj, err := newObject(t)
	if err != nil {
		return "", err
	}
	switch {
	case len(data) == 0:
		return "", fmt.Errorf("empty data")
	case len(data) < len(prefix) || !bytes.Equal(prefix, data[:len(prefix)]):
		return "", fmt.Errorf("provided data does not appear to be a protobuf message, expected prefix %v", prefix)
	case len(data) == len(prefix):
		return "", fmt.Errorf("empty body")
	}
	unk := runtime.Unknown{}
	if err := unk.Unmarshal(data[len(prefix):]); err != nil {
		return "", err
	}
	if err := proto.Unmarshal(unk.Raw, obj.(proto.Message)); err != nil {
		return "", err
	}
	obj.GetObjectKind().SetGroupVersionKind(unk.GroupVersionKind())
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(obj); err != nil {
		return "", err
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// watch encodes a WatchEvent as kube-apiserver's watch handler does: the object's envelope in
// the RawExtension, then the WatchEvent through a versioning codec for the resource's group
// version (the stream serializer of the protobuf media type).
func watch(w *watchRequest) ([]byte, error) {
	gv, err := schema.ParseGroupVersion(w.GroupVersion)
	if err != nil {
		return nil, err
	}
	if !registered[gv] && !scheme.IsVersionRegistered(gv) {
		metav1.AddToGroupVersion(scheme, gv)
		registered[gv] = true
	}
	codecs := serializer.NewCodecFactory(scheme)
	var info runtime.SerializerInfo
	for _, i := range codecs.SupportedMediaTypes() {
		if i.MediaType == runtime.ContentTypeProtobuf {
			info = i
		}
	}
	enc := codecs.EncoderForVersion(info.StreamSerializer.Serializer, gv)
	internal := metav1.InternalEvent{Type: watchapi.EventType(w.Type), Object: &runtime.Unknown{Raw: w.Object}}
	out := &metav1.WatchEvent{}
	if err := metav1.Convert_v1_InternalEvent_To_v1_WatchEvent(&internal, out, nil); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := enc.Encode(out, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for sc.Scan() {
		var req request
		var a answer
		var err error
		if err = json.Unmarshal(sc.Bytes(), &req); err == nil {
			switch {
			case req.Watch != nil:
				a.Protobuf, err = watch(req.Watch)
			case req.JSON != nil:
				a.Protobuf, err = encode(req.Type, *req.JSON)
			default:
				var s string
				if s, err = decode(req.Type, req.Decode); err == nil {
					a.JSON = &s
				}
			}
		}
		if err != nil {
			s := err.Error()
			a.Err = &s
			a.Protobuf = nil
		}
		enc.Encode(a)
		w.Flush()
	}
}
